package lossless

import "reflect"

// Nil and empty, where JSON tells them apart.
//
// Semantic equality takes a nil slice or map for an empty one, but JSON
// does not always: a list without omitempty is written [] when empty and
// null (which the API server drops) when nil. restoreSparse asks whether a
// stashed field still holds what the round trip made of it; an edit made
// through the other version that only turned one element's nil list into []
// (and another's [] into nil) looked unchanged, and the stash put the old
// lists back over it (apigen seed 681509841). So the field must also agree
// on nil-ness (nilsAgree): in Go first, and where Go differs only there,
// the JSON images decide (jsonimage.go), which are nil exactly where JSON
// showed nothing.

// nilsAgree reports whether a and b, semantically equal values of one type,
// are nil where JSON shows it in the same places: their slices and maps, at
// every depth, but where a field's omitempty writes nil and empty alike
// (hidden, for a and b themselves). Values with a JSON form of their own
// are compared by semantic equality alone.
func nilsAgree(a, b reflect.Value, hidden bool) bool {
	t := a.Type()
	switch t.Kind() {
	case reflect.Slice:
		if a.IsNil() != b.IsNil() && !hidden {
			return false
		}
		if t.Elem().Kind() == reflect.Uint8 {
			return true
		}
		return elemsAgree(a, b)
	case reflect.Array:
		return elemsAgree(a, b)
	case reflect.Map:
		if a.IsNil() != b.IsNil() && !hidden {
			return false
		}
		for it := a.MapRange(); it.Next(); {
			if e := b.MapIndex(it.Key()); e.IsValid() && !nilsAgree(it.Value(), e, false) {
				return false
			}
		}
		return true
	case reflect.Pointer, reflect.Interface:
		if a.IsNil() || b.IsNil() || hasMarshaler(t) {
			return true // semantic equality has compared them
		}
		if t.Kind() == reflect.Interface && a.Elem().Type() != b.Elem().Type() {
			return true
		}
		return nilsAgree(a.Elem(), b.Elem(), false)
	case reflect.Struct:
		if hasMarshaler(t) {
			return true
		}
		// The fields encoding/json writes (fieldsOf); one behind an embedded
		// pointer nil on either side, semantic equality has compared.
		for _, f := range fieldsOf(t).fields {
			fa, inA := lookup(a, f.index)
			fb, inB := lookup(b, f.index)
			if inA && inB && !nilsAgree(fa, fb, f.omitEmpty) {
				return false
			}
		}
	}
	return true
}

func elemsAgree(a, b reflect.Value) bool {
	for i := 0; i < a.Len() && i < b.Len(); i++ {
		if !nilsAgree(a.Index(i), b.Index(i), false) {
			return false
		}
	}
	return true
}
