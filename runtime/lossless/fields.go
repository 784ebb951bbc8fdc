package lossless

import (
	"encoding"
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"sync"
	"unicode"
)

// jsonField is a field of a struct as encoding/json writes it: its name in
// the JSON object, and where it is in the Go struct.
type jsonField struct {
	name string
	// key is name as a JSON string followed by a colon, ready to write.
	key []byte
	// index leads from the struct to the field, through embedded structs.
	index []int
	typ   reflect.Type
	// quoted: the field has the ",string" option, which encoding/json
	// applies to scalars (and pointers to them) by writing their JSON as a
	// JSON string.
	quoted bool
	// tagged: the name comes from a json tag, which wins over an untagged
	// field of the same name at the same depth.
	tagged bool
	// viaPointer: the field is reached through an embedded pointer, which
	// may be nil (see embedptr.go).
	viaPointer bool
	// walk: the field is a struct the sparse stash looks into (see
	// walkable) rather than a value it stores whole.
	walk bool
	// omitEmpty and omitZero: the field has the "omitempty" or the
	// "omitzero" option.
	omitEmpty, omitZero bool
}

// structFields is what encoding/json makes of a struct type: its fields in
// the order it writes them.
type structFields struct {
	fields []jsonField
	// embeds are the embedded pointers the fields are promoted through.
	embeds []embedPtr
}

var structFieldsOf sync.Map // reflect.Type → *structFields

// fieldsOf returns t's fields as encoding/json resolves them: exported
// fields and the fields of embedded structs without a json name, promoted;
// the name from the json tag, else the Go name; fields tagged "-" left out;
// and of several fields with one name, the least deeply embedded, or the
// tagged one among those, or none when that does not decide.
func fieldsOf(t reflect.Type) *structFields {
	if sf, ok := structFieldsOf.Load(t); ok {
		return sf.(*structFields)
	}
	sf := resolveFields(t)
	for i := range sf.fields {
		sf.fields[i].walk = walkable(sf.fields[i].typ)
	}
	actual, _ := structFieldsOf.LoadOrStore(t, sf)
	return actual.(*structFields)
}

// walkable reports whether the sparse stash looks into a struct of type t
// field by field: a struct that encoding/json writes as an object of its
// fields (no marshaler of its own), those promoted through embedded
// pointers included, and not one semantic equality compares as a whole
// (those have marshalers too: Quantity, Time, MicroTime). Everything else,
// pointers, slices and maps included, is a leaf stored whole.
func walkable(t reflect.Type) bool {
	if t.Kind() != reflect.Struct || hasMarshaler(t) {
		return false
	}
	switch t {
	case quantityType, timeType, microTimeType:
		return false
	}
	return true
}

var (
	jsonMarshalerType   = reflect.TypeOf((*json.Marshaler)(nil)).Elem()
	jsonUnmarshalerType = reflect.TypeOf((*json.Unmarshaler)(nil)).Elem()
	textMarshalerType   = reflect.TypeOf((*encoding.TextMarshaler)(nil)).Elem()
	textUnmarshalerType = reflect.TypeOf((*encoding.TextUnmarshaler)(nil)).Elem()
)

func hasMarshaler(t reflect.Type) bool {
	p := reflect.PointerTo(t)
	for _, m := range []reflect.Type{jsonMarshalerType, textMarshalerType, jsonUnmarshalerType, textUnmarshalerType} {
		if t.Implements(m) || p.Implements(m) {
			return true
		}
	}
	return false
}

// embedded is a struct whose fields are promoted into the one being
// resolved, found at index.
type embedded struct {
	typ        reflect.Type
	index      []int
	viaPointer bool
}

func resolveFields(t reflect.Type) *structFields {
	var all []jsonField
	current := []embedded{{typ: t}}
	visited := map[reflect.Type]bool{}
	for len(current) > 0 {
		var next []embedded
		// How often each struct type is embedded at this depth: twice
		// means every name it brings conflicts with itself.
		count := map[reflect.Type]int{}
		for _, e := range current {
			count[e.typ]++
		}
		nextCount := map[reflect.Type]int{}
		for _, e := range current {
			if visited[e.typ] {
				continue
			}
			visited[e.typ] = true
			for i := 0; i < e.typ.NumField(); i++ {
				f := e.typ.Field(i)
				ft := f.Type
				if ft.Name() == "" && ft.Kind() == reflect.Pointer {
					ft = ft.Elem()
				}
				if f.Anonymous {
					if !f.IsExported() && ft.Kind() != reflect.Struct {
						continue
					}
				} else if !f.IsExported() {
					continue
				}
				tag := f.Tag.Get("json")
				if tag == "-" {
					continue
				}
				name, opts, _ := strings.Cut(tag, ",")
				if !validName(name) {
					name = ""
				}
				index := append(slices.Clip(e.index), i)
				if name != "" || !f.Anonymous || ft.Kind() != reflect.Struct {
					field := jsonField{
						name:       name,
						index:      index,
						typ:        f.Type,
						tagged:     name != "",
						viaPointer: e.viaPointer,
						quoted:     hasOption(opts, "string") && quotable(ft.Kind()),
						omitEmpty:  hasOption(opts, "omitempty"),
						omitZero:   hasOption(opts, "omitzero"),
					}
					if field.name == "" {
						field.name = f.Name
					}
					all = append(all, field)
					if count[e.typ] > 1 {
						all = append(all, field)
					}
					continue
				}
				nextCount[ft]++
				if nextCount[ft] == 1 {
					next = append(next, embedded{typ: ft, index: index, viaPointer: e.viaPointer || f.Type.Kind() == reflect.Pointer})
				}
			}
		}
		current = next
	}

	// Of the fields of one name, keep the dominant one, if any.
	slices.SortStableFunc(all, func(a, b jsonField) int {
		if c := strings.Compare(a.name, b.name); c != 0 {
			return c
		}
		if c := len(a.index) - len(b.index); c != 0 {
			return c
		}
		if a.tagged != b.tagged {
			if a.tagged {
				return -1
			}
			return 1
		}
		return slices.Compare(a.index, b.index)
	})
	var kept []jsonField
	for i := 0; i < len(all); {
		j := i + 1
		for j < len(all) && all[j].name == all[i].name {
			j++
		}
		if f, ok := dominant(all[i:j]); ok {
			kept = append(kept, f)
		}
		i = j
	}
	slices.SortFunc(kept, func(a, b jsonField) int { return slices.Compare(a.index, b.index) })

	sf := &structFields{fields: kept, embeds: pointerEmbeds(t, kept)}
	for i := range sf.fields {
		key, _ := json.Marshal(sf.fields[i].name)
		key = append(key, ':')
		sf.fields[i].key = key
	}
	return sf
}

// dominant picks, of fields sharing a name (sorted by depth, tagged first),
// the one encoding/json writes: the only one at the least depth, or the only
// tagged one there.
func dominant(fields []jsonField) (jsonField, bool) {
	if len(fields) > 1 && len(fields[0].index) == len(fields[1].index) && fields[0].tagged == fields[1].tagged {
		return jsonField{}, false
	}
	return fields[0], true
}

func hasOption(opts, want string) bool {
	for opts != "" {
		var o string
		o, opts, _ = strings.Cut(opts, ",")
		if o == want {
			return true
		}
	}
	return false
}

func quotable(k reflect.Kind) bool {
	switch k {
	case reflect.Bool,
		reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64,
		reflect.String:
		return true
	}
	return false
}

// validName is encoding/json's rule for a name in a tag: letters, digits,
// spaces and most punctuation, but no quotes, backslash or comma; otherwise
// the Go name is used.
func validName(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		switch {
		case strings.ContainsRune("!#$%&()*+-./:;<=>?@[]^_{|}~ ", c):
		case !unicode.IsLetter(c) && !unicode.IsDigit(c):
			return false
		}
	}
	return true
}
