package lossless

import (
	"bytes"
	"encoding/json"
	"reflect"
)

// What the API server stores: apiextensions-apiserver prunes the null
// members of an object whose schema is not nullable and has no default
// (PruneNonNullableNullsWithoutDefaults), when it decodes a request, reads
// from etcd, and takes a conversion webhook's answer. So no stored object,
// and no object a webhook is sent, holds such a null. Go writes one for a
// nil pointer, slice or map without omitempty, and reads it back as nil,
// the value absence gives too, but for one thing: a member promoted through
// an embedded pointer (`*Extra json:",inline"`) allocates the pointer even
// when null. An object whose embedded pointer holds only nulls comes back
// from the API server with the pointer nil.
//
// The runtime has no schema. A member is taken as not nullable, which it
// is unless its field is marked +nullable; a map's values, which no marker
// makes nullable, never are. Free-form JSON (an interface, a type that
// writes its own JSON such as apiextensionsv1.JSON or RawExtension) has no
// schema inside, and the API server keeps its nulls, so they are kept too.

// StoredJSON returns data, the JSON of a value of type t, as the API server
// stores it: without the null members of its objects where t's schema is
// not nullable (see above).
func StoredJSON(data []byte, t reflect.Type) ([]byte, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber() // numbers written back as they were read
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	dropNulls(v, t, false)
	return json.Marshal(v)
}

// dropNulls drops from v, the JSON of a value of type t, the null members
// of its objects that t's schema does not allow; with promotedOnly, only
// those promoted through an embedded pointer, the only nulls encoding/json
// reads otherwise than absence (readBack).
func dropNulls(v any, t reflect.Type, promotedOnly bool) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() == reflect.Interface || hasMarshaler(t) {
		return
	}
	switch v := v.(type) {
	case map[string]any:
		for k, m := range v {
			mt, promoted, ok := memberType(t, k)
			switch {
			case !ok:
			case m == nil:
				if promoted || !promotedOnly {
					delete(v, k)
				}
			default:
				dropNulls(m, mt, promotedOnly)
			}
		}
	case []any:
		if t.Kind() == reflect.Slice || t.Kind() == reflect.Array {
			for _, e := range v {
				dropNulls(e, t.Elem(), promotedOnly)
			}
		}
	}
}

// memberType returns the type of the member key of the JSON object of a
// value of type t, a struct or a map, and whether it is a field promoted
// through an embedded pointer; false for a member t does not know.
func memberType(t reflect.Type, key string) (typ reflect.Type, promoted, ok bool) {
	switch t.Kind() {
	case reflect.Map:
		return t.Elem(), false, true
	case reflect.Struct:
		for _, f := range fieldsOf(t).fields {
			if f.name == key {
				return f.typ, f.viaPointer, true
			}
		}
	}
	return nil, false, false
}
