package webhook

import (
	"go/types"
	"reflect"
	"strings"
)

// jsonField is one member of a struct's JSON object, as encoding/json
// reads and writes it: a field of the struct or, through embedded structs,
// of one of theirs.
type jsonField struct {
	name string
	// path is the chain of fields from the struct to the field: the
	// embedded ones, then the field itself.
	path      []*types.Var
	omitEmpty bool
	omitZero  bool
}

// jsonFields lists the members of st's JSON object in field order, or
// reports false when encoding/json's rules for them are more than a
// generated codec repeats, and the struct is left to the reflection codec:
// a name that two fields claim (encoding/json then picks by depth and tag,
// or drops both), an embedded pointer or unexported embedded struct, the
// "string" option or any option but omitempty and omitzero, a name encoding/json would
// not take from a tag.
func jsonFields(st *types.Struct) ([]jsonField, bool) {
	var out []jsonField
	if !collectFields(st, nil, &out, map[*types.Struct]bool{}) {
		return nil, false
	}
	names := map[string]bool{}
	for _, f := range out {
		if names[f.name] {
			return nil, false
		}
		names[f.name] = true
	}
	return out, true
}

func collectFields(st *types.Struct, prefix []*types.Var, out *[]jsonField, walking map[*types.Struct]bool) bool {
	if walking[st] {
		return false // a struct embedding itself: encoding/json stops where it repeats
	}
	walking[st] = true
	defer delete(walking, st)
	for i := range st.NumFields() {
		f := st.Field(i)
		tag := reflect.StructTag(st.Tag(i)).Get("json")
		if tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		omitEmpty, omitZero := false, false
		for _, o := range strings.Split(opts, ",") {
			switch o {
			case "":
			case "omitempty":
				omitEmpty = true
			case "omitzero":
				omitZero = true
			case "inline":
				if !f.Embedded() {
					return false // not an option of encoding/json's
				}
			default:
				return false
			}
		}
		path := append(append([]*types.Var(nil), prefix...), f)
		if f.Embedded() && name == "" {
			if _, isPtr := f.Type().(*types.Pointer); isPtr {
				return false
			}
			if inner, ok := f.Type().Underlying().(*types.Struct); ok {
				if !f.Exported() || !collectFields(inner, path, out, walking) {
					return false
				}
				continue
			}
		}
		if !f.Exported() {
			if f.Embedded() {
				return false
			}
			continue
		}
		if name == "" {
			name = f.Name()
		} else if !plainName(name) {
			return false
		}
		*out = append(*out, jsonField{name: name, path: path, omitEmpty: omitEmpty, omitZero: omitZero})
	}
	return true
}

// plainName reports whether a tag's name is one encoding/json takes as it
// is and that needs no escaping in JSON or Go.
func plainName(s string) bool {
	for _, r := range s {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', strings.ContainsRune("-_./", r):
		default:
			return false
		}
	}
	return true
}
