package apicheck

import (
	"encoding/json"
	"path"
	"reflect"
	"strings"
)

// A zero value some version writes (a {}, a "0") where the storage
// version's field is omitzero reads back absent once stored: no stash can
// keep what the hub's own JSON leaves out, and generate warns at the field
// instead ("leaves out a zero value that v1 writes"). Such a member is no
// loss the check reports, when generate warned of it.

// zeroDrops are the fields generate warned of, by version and struct: the
// path of Go field names from that struct to the field, each member of
// which, holding a zero value, the check leaves out of both sides.
type zeroDrops map[string]map[string][][]string

// parseZeroDrops reads Case.ZeroDrops, each "<version> <Struct>.<Field>".
func parseZeroDrops(fields []string) zeroDrops {
	z := zeroDrops{}
	for _, f := range fields {
		version, dotted, _ := strings.Cut(f, " ")
		parts := strings.Split(dotted, ".")
		if z[version] == nil {
			z[version] = map[string][][]string{}
		}
		z[version][parts[0]] = append(z[version][parts[0]], parts[1:])
	}
	return z
}

// strip leaves out of v, the JSON of a value of type t, the members of
// warned fields that hold a zero value.
func (z zeroDrops) strip(v any, t reflect.Type) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch v := v.(type) {
	case map[string]any:
		switch {
		case t.Kind() == reflect.Map:
			for _, m := range v {
				z.strip(m, t.Elem())
			}
		case t.Kind() == reflect.Struct && !writesItself(t):
			z.dropZeros(v, t)
			for name, f := range members(t) {
				if m, ok := v[name]; ok {
					z.strip(m, f.Type)
				}
			}
		}
	case []any:
		if t.Kind() == reflect.Slice || t.Kind() == reflect.Array {
			for _, e := range v {
				z.strip(e, t.Elem())
			}
		}
	}
}

// dropZeros leaves out of obj, the JSON object of a struct of type t, the
// zero values of the warned fields of t and of the structs it embeds inline,
// whose members are obj's too.
func (z zeroDrops) dropZeros(obj map[string]any, t reflect.Type) {
	for _, p := range z[path.Base(t.PkgPath())][t.Name()] {
		dropZero(obj, t, p)
	}
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		inner := f.Type
		for inner.Kind() == reflect.Pointer {
			inner = inner.Elem()
		}
		if f.Anonymous && name == "" && inner.Kind() == reflect.Struct {
			z.dropZeros(obj, inner)
		}
	}
}

// dropZero leaves out of obj, the JSON object of a struct of type t, the
// member at the path of Go field names p when it holds a zero value.
func dropZero(obj map[string]any, t reflect.Type, p []string) {
	for i, goName := range p {
		name, f, ok := member(t, goName)
		if !ok {
			return
		}
		m, ok := obj[name]
		if !ok {
			return
		}
		if i == len(p)-1 {
			if omitzeroOmits(m, f.Type) {
				delete(obj, name)
			}
			return
		}
		if obj, ok = m.(map[string]any); !ok {
			return
		}
		t = f.Type
		for t.Kind() == reflect.Pointer {
			t = t.Elem()
		}
	}
}

// members are the JSON members of struct t, those promoted through
// embedded structs included, by name.
func members(t reflect.Type) map[string]reflect.StructField {
	out := map[string]reflect.StructField{}
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		inner := f.Type
		for inner.Kind() == reflect.Pointer {
			inner = inner.Elem()
		}
		switch {
		case name == "-" || (!f.IsExported() && !f.Anonymous):
		case f.Anonymous && name == "" && inner.Kind() == reflect.Struct:
			for n, pf := range members(inner) {
				out[n] = pf
			}
		case name == "":
			out[f.Name] = f
		default:
			out[name] = f
		}
	}
	return out
}

// member is the JSON name and field of the Go field goName of struct t.
func member(t reflect.Type, goName string) (string, reflect.StructField, bool) {
	for name, f := range members(t) {
		if f.Name == goName {
			return name, f, true
		}
	}
	return "", reflect.StructField{}, false
}

// omitzeroOmits reports whether encoding/json's omitzero leaves out m, the
// JSON of a value of type t: a nil pointer, or a value whose IsZero (of t,
// or of *t) says so, or else the zero value of t.
func omitzeroOmits(m any, t reflect.Type) bool {
	b, err := json.Marshal(m)
	if err != nil {
		return false
	}
	p := reflect.New(t)
	if err := json.Unmarshal(b, p.Interface()); err != nil {
		return false
	}
	v := p.Elem()
	if v.Kind() == reflect.Pointer && v.IsNil() {
		return true
	}
	for _, x := range []reflect.Value{v, p} {
		if z, ok := x.Interface().(interface{ IsZero() bool }); ok {
			return z.IsZero()
		}
	}
	return v.IsZero()
}

// writesItself reports whether t has a JSON marshaler of its own, whose
// members are no fields.
func writesItself(t reflect.Type) bool {
	m := reflect.TypeFor[json.Marshaler]()
	return t.Implements(m) || reflect.PointerTo(t).Implements(m)
}
