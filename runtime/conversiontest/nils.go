package conversiontest

import (
	"encoding"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
)

// Semantic equality takes a nil slice or map for an empty one, but a client
// does not: JSON writes null (or nothing) for one and [] or {} for the
// other, and a client that wrote "tags": {} must read it back. nilsApart
// finds where two semantically equal objects differ so (issue 58, item 7),
// but for empty values of omitempty fields, absent from JSON as nil is.

var ownJSONMethods = []reflect.Type{
	reflect.TypeOf((*json.Marshaler)(nil)).Elem(), reflect.TypeOf((*json.Unmarshaler)(nil)).Elem(),
	reflect.TypeOf((*encoding.TextMarshaler)(nil)).Elem(), reflect.TypeOf((*encoding.TextUnmarshaler)(nil)).Elem(),
}

// ownJSON: t has a JSON form of its own, which semantic equality compares.
func ownJSON(t reflect.Type) bool {
	for _, m := range ownJSONMethods {
		if t.Implements(m) || reflect.PointerTo(t).Implements(m) {
			return true
		}
	}
	return false
}

// nilsApart returns the path of the first value nil in one of a and b and
// empty in the other, where JSON tells them apart, and false where there is
// none. a and b are semantically equal values of one type.
func nilsApart(a, b reflect.Value, path string, omitEmpty bool) (string, bool) {
	t := a.Type()
	if ownJSON(t) && (t.Kind() != reflect.Slice || t.Elem().Kind() != reflect.Uint8) {
		return "", false
	}
	switch t.Kind() {
	case reflect.Pointer, reflect.Interface:
		if a.IsNil() || b.IsNil() {
			return "", false
		}
		return nilsApart(a.Elem(), b.Elem(), path, false)
	case reflect.Slice, reflect.Map:
		if a.Len() == 0 && omitEmpty {
			return "", false
		}
		if a.IsNil() != b.IsNil() {
			return path, true
		}
		if t.Kind() == reflect.Map {
			return mapNilsApart(a, b, path)
		}
		return elemNilsApart(a, b, path)
	case reflect.Array:
		return elemNilsApart(a, b, path)
	case reflect.Struct:
		return fieldNilsApart(a, b, path)
	}
	return "", false
}

func elemNilsApart(a, b reflect.Value, path string) (string, bool) {
	for i := 0; i < a.Len() && i < b.Len(); i++ {
		if p, ok := nilsApart(a.Index(i), b.Index(i), fmt.Sprintf("%s[%d]", path, i), false); ok {
			return p, true
		}
	}
	return "", false
}

func mapNilsApart(a, b reflect.Value, path string) (string, bool) {
	it := a.MapRange()
	for it.Next() {
		if w := b.MapIndex(it.Key()); w.IsValid() {
			if p, ok := nilsApart(it.Value(), w, fmt.Sprintf("%s[%v]", path, it.Key()), false); ok {
				return p, true
			}
		}
	}
	return "", false
}

// fieldNilsApart walks the fields JSON writes, each with its omitempty.
func fieldNilsApart(a, b reflect.Value, path string) (string, bool) {
	t := a.Type()
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		name, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
		if !f.IsExported() || name == "-" {
			continue
		}
		at := path
		if name == "" && !f.Anonymous {
			name = f.Name
		}
		if name != "" {
			at += "." + name
		}
		omitEmpty := slices.Contains(strings.Split(opts, ","), "omitempty")
		if p, ok := nilsApart(a.Field(i), b.Field(i), at, omitEmpty); ok {
			return p, true
		}
	}
	return "", false
}
