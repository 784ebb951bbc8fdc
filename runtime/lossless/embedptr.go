package lossless

import (
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"unsafe"
)

// Fields promoted through embedded pointers.
//
// encoding/json promotes the fields of an embedded pointer to a struct
// (`*Extra json:",inline"`) into the embedding struct's object; it writes
// none of them while the pointer is nil, and decoding any of them allocates
// it. The sparse stash walks these fields as it walks the others, each a
// member of the embedding struct's object: a field that only one version
// holds is stashed and restored on its own, whatever else was edited through
// the other version. Stashing the embedding struct whole instead would make
// any edit of it, or a pointer to a struct whose fields JSON omits, drop
// every stashed field in it.
//
// A field behind a nil pointer is absent: it differs from any value that is
// there, and restoring it allocates the pointers on its way. What the fields
// cannot tell is whether the pointer itself is nil, since a nil pointer and
// one to a struct whose fields JSON all omits write the same members. Where
// the source and its round trip disagree on that, the stash writes a marker
// member, keyed by a comma and the Go names of the embedded fields that lead
// to the pointer (",Extra"): null for a nil pointer, {} for one that is not,
// beside the members of that struct's fields that are not zero. No field's
// JSON name starts with a comma (a tag's name ends at its first comma, and Go
// names have none), and a runtime that does not know the marker ignores it
// as it ignores any unknown field.

// An embedPtr is an embedded pointer to a struct through which fields are
// promoted into a struct's JSON object.
type embedPtr struct {
	// index leads to the pointer from the struct.
	index []int
	// typ is the pointer's type.
	typ reflect.Type
	// name is its marker's, key the name as a JSON string and a colon.
	name string
	key  []byte
}

// pointerHop returns how many steps of index, from struct type t, lead to
// the first embedded pointer on the way to the field at index; 0 when the
// field is reached through structs held by value only.
func pointerHop(t reflect.Type, index []int) int {
	for k := 0; k < len(index)-1; k++ {
		t = t.Field(index[k]).Type
		if t.Kind() == reflect.Pointer {
			return k + 1
		}
	}
	return 0
}

// pointerEmbeds lists the embedded pointers through which fields, the JSON
// fields of struct type t, are promoted, every one on every field's way,
// outer ones first.
func pointerEmbeds(t reflect.Type, fields []jsonField) []embedPtr {
	var out []embedPtr
	for _, f := range fields {
		at := t
		for k := 0; k < len(f.index)-1; k++ {
			at = at.Field(f.index[k]).Type
			if at.Kind() != reflect.Pointer {
				continue
			}
			index := f.index[: k+1 : k+1]
			if !slices.ContainsFunc(out, func(e embedPtr) bool { return slices.Equal(e.index, index) }) {
				names := goNames(t, index)
				out = append(out, embedPtr{index: index, typ: at, name: "," + names, key: markerKey(names)})
			}
			at = at.Elem()
		}
	}
	slices.SortStableFunc(out, func(a, b embedPtr) int { return len(a.index) - len(b.index) })
	return out
}

// goNames joins the Go names of the fields on index from struct type t.
func goNames(t reflect.Type, index []int) string {
	names := make([]string, len(index))
	for i, x := range index {
		if t.Kind() == reflect.Pointer {
			t = t.Elem()
		}
		f := t.Field(x)
		names[i], t = f.Name, f.Type
	}
	return strings.Join(names, ".")
}

// markerKey is the JSON key, with its colon, of the marker of the embedded
// pointer the Go names name.
func markerKey(names string) []byte {
	key, _ := json.Marshal("," + names)
	return append(key, ':')
}

// lookup returns the field at index in struct v, and false when a nil
// embedded pointer on its way leaves it absent.
func lookup(v reflect.Value, index []int) (reflect.Value, bool) {
	f, err := v.FieldByIndexErr(index)
	return f, err == nil
}

// settable returns the field at index in struct v, to be set: each embedded
// pointer on its way is made to point at memory of v's own first, a new
// struct for a nil one, a copy for any other that fresh, the structs made so
// far, does not hold. v may share what it points at with another object,
// which must not change.
func settable(v reflect.Value, index []int, fresh map[unsafe.Pointer]bool) reflect.Value {
	for i, x := range index {
		if i > 0 && v.Kind() == reflect.Pointer {
			if v.IsNil() || !fresh[v.UnsafePointer()] {
				n := reflect.New(v.Type().Elem())
				if !v.IsNil() {
					n.Elem().Set(v.Elem())
				}
				v.Set(n)
				fresh[n.UnsafePointer()] = true
			}
			v = v.Elem()
		}
		v = v.Field(x)
	}
	return v
}

// What JSON cannot tell apart.
//
// A pointer to a struct that writes no member the API server keeps (each
// omitted, or null, which it drops: stored.go) reads back from JSON as nil,
// as a nil one does. Where the source and its round trip differ only so, no
// client can see a difference, and stashing one would leave an annotation
// on an object whose JSON, read back, converts without one.

// showsNothing reports whether the struct of type t at p, nil for none, is
// one JSON cannot tell from a nil pointer (see above).
func showsNothing(t reflect.Type, p unsafe.Pointer) bool {
	if p == nil {
		return false
	}
	s, ok := storedForm(t, p)
	return ok && s == "{}"
}

// sameStored reports whether the values of type t at a and b have one JSON
// form as the API server stores it.
func sameStored(t reflect.Type, a, b unsafe.Pointer) bool {
	sa, okA := storedForm(t, a)
	sb, okB := storedForm(t, b)
	return okA && okB && sa == sb
}

// storedForm returns the JSON of the value of type t at p as the API server
// stores it, and false when it has none.
func storedForm(t reflect.Type, p unsafe.Pointer) (string, bool) {
	data, err := json.Marshal(reflect.NewAt(t, p).Interface())
	if err == nil {
		data, err = StoredJSON(data, t)
	}
	return string(data), err == nil
}

// reachesEmbed reports whether a value of type t may hold a struct with an
// embedded pointer JSON promotes fields through, where semantic equality
// tells apart what JSON may not: a pointer to a struct with no fields too,
// which sf.embeds, found through the fields promoted, leaves out (apigen
// seed 45: a list element's such pointer, non-nil in the round trip, made
// the list look changed and stashed it whole). seen holds the types already looked into.
func reachesEmbed(t reflect.Type, seen map[reflect.Type]bool) bool {
	if seen[t] || hasMarshaler(t) {
		return false
	}
	seen[t] = true
	switch t.Kind() {
	case reflect.Pointer, reflect.Slice, reflect.Array, reflect.Map:
		return reachesEmbed(t.Elem(), seen)
	case reflect.Struct:
		sf := fieldsOf(t)
		if len(sf.embeds) > 0 || hasInlinePointer(t) {
			return true
		}
		for _, f := range sf.fields {
			if reachesEmbed(f.typ, seen) {
				return true
			}
		}
	}
	return false
}
