package lossless

import (
	"reflect"
	"sync"
	"unsafe"
)

// Zero structs JSON shows.
//
// An omitzero field of a struct type without an IsZero method is left out
// of JSON exactly when the struct is Go's zero value, and JSON of its
// members does not always tell whether it is: a member that is an empty
// omitempty list or map, or a Quantity of "0" behind an omitzero, writes
// nothing, yet makes the struct non-zero; a zero Quantity writes "0",
// which reads back as a Quantity that is not Go's zero value. Carried
// through a version that writes the struct (or its members) so, a struct a
// client left out comes back as "{...}", and one it wrote as "{}" comes back
// absent (apigen seeds 477373812, 477373870, 477373884, 477373876,
// 477374021).
//
// So a source type that shows zero structs in JSON is judged as JSON reads
// the destination back (readBack), and the sparse stash's diff compares
// such a field's zero-ness as well as its members: a struct zero in the
// source alone is stashed as null, which restores the zero value; one zero
// in the round trip alone has its members compared as Go's zero-ness
// tells them apart, so that the stash keeps the "[]", "{}" or "0" that
// made it non-zero.

var showsZeroOf sync.Map // reflect.Type → bool

// showsZero reports whether the data of root type t (all but its TypeMeta
// and ObjectMeta) holds, anywhere, an omitzero field zeroShown says so of.
func showsZero(t reflect.Type) bool {
	if s, ok := showsZeroOf.Load(t); ok {
		return s.(bool)
	}
	seen := map[reflect.Type]bool{typeMetaType: true, objectMetaType: true}
	s := reachesZeroShown(t, seen)
	showsZeroOf.Store(t, s)
	return s
}

func reachesZeroShown(t reflect.Type, seen map[reflect.Type]bool) bool {
	if seen[t] || hasMarshaler(t) {
		return false
	}
	seen[t] = true
	switch t.Kind() {
	case reflect.Pointer, reflect.Slice, reflect.Array, reflect.Map:
		return reachesZeroShown(t.Elem(), seen)
	case reflect.Struct:
		for _, f := range fieldsOf(t).fields {
			if zeroShown(f) {
				return true
			}
		}
		for i := 0; i < t.NumField(); i++ {
			if reachesZeroShown(t.Field(i).Type, seen) {
				return true
			}
		}
	}
	return false
}

// zeroShown reports whether JSON leaves f out exactly when it is Go's zero
// value: an omitzero struct the sparse stash walks, with no IsZero method.
func zeroShown(f jsonField) bool {
	return f.omitZero && f.walk && !hasIsZero(f.typ)
}

// isZeroAt reports whether the value of type t at p is Go's zero value.
func isZeroAt(t reflect.Type, p unsafe.Pointer) bool {
	return reflect.NewAt(t, p).Elem().IsZero()
}

// omittedZero reports whether encoding/json leaves out the value of type t
// at p from an omitzero field: nil, or zero by its IsZero method (a
// Quantity of "0", through a pointer too). Nobody can read such a value
// back, from either side of a conversion (apigen seed 290104160: a
// *Quantity of "0" omitzero in every version).
func omittedZero(t reflect.Type, p unsafe.Pointer) bool {
	v := reflect.NewAt(t, p)
	if t.Kind() == reflect.Pointer && v.Elem().IsNil() {
		return true
	}
	for _, x := range []reflect.Value{v.Elem(), v} {
		if z, ok := x.Interface().(interface{ IsZero() bool }); ok {
			return z.IsZero()
		}
	}
	return false
}
