package lossless

import (
	"reflect"
	"sync"
	"unsafe"
)

// Empty, non-nil values.
//
// Semantic equality takes a nil slice or map for an empty one, but JSON
// does not: a client that wrote "tags": {} or "d": [] reads null or nothing
// back if a conversion hands it nil. The sparse stash's diff therefore asks,
// of two leaves semantic equality finds equal, whether they are nil in the
// same places where JSON shows it (issue 58, item 7); an empty value of an
// omitempty field is absent in JSON, as nil is, and is not told apart.

// nilFunc reports whether two values of one type, semantically equal, are
// nil in the same places where JSON writes nil and empty apart.
type nilFunc func(a, b unsafe.Pointer) bool

// nilFuncs caches nilFor; a nil nilFunc is a type without such places.
var nilFuncs sync.Map // reflect.Type → nilFunc

// nilFor returns the nil-ness comparison of values of t, nil when values of
// t have no nil that JSON writes apart from empty.
func nilFor(t reflect.Type) nilFunc {
	if f, ok := nilFuncs.Load(t); ok {
		return f.(nilFunc)
	}
	f := buildNil(t, map[reflect.Type]*nilFunc{})
	actual, _ := nilFuncs.LoadOrStore(t, f)
	return actual.(nilFunc)
}

// fieldNilFor is nilFor of a struct field's type, with its tag's
// omitempty: an empty slice or map there is left out of JSON, as nil is.
func fieldNilFor(t reflect.Type, omitEmpty bool) nilFunc {
	return omittable(t, omitEmpty, nilFor(t))
}

// jsonEq is eq, semantic equality, that also tells apart what nil tells
// apart in JSON: the diff's comparison of a leaf.
func jsonEq(eq eqFunc, nilEq nilFunc) eqFunc {
	if nilEq == nil {
		return eq
	}
	return func(a, b unsafe.Pointer) bool { return eq(a, b) && nilEq(a, b) }
}

// buildNil builds t's comparison; building holds those under way, which a
// recursive type refers to (as a cell that may turn out nil).
func buildNil(t reflect.Type, building map[reflect.Type]*nilFunc) nilFunc {
	if cell, ok := building[t]; ok {
		return func(a, b unsafe.Pointer) bool { return *cell == nil || (*cell)(a, b) }
	}
	cell := new(nilFunc)
	building[t] = cell
	*cell = buildNilOf(t, building)
	delete(building, t)
	return *cell
}

func buildNilOf(t reflect.Type, building map[reflect.Type]*nilFunc) nilFunc {
	if t.Kind() == reflect.Slice && t.Elem() == byteType {
		// Base64: null for nil, "" for empty.
		return func(a, b unsafe.Pointer) bool {
			return ((*sliceHeader)(a).data == nil) == ((*sliceHeader)(b).data == nil)
		}
	}
	if hasMarshaler(t) {
		return nil // its own JSON form, which semantic equality compares
	}
	switch t.Kind() {
	case reflect.Pointer:
		elem := buildNil(t.Elem(), building)
		if elem == nil {
			return nil
		}
		return func(a, b unsafe.Pointer) bool {
			pa, pb := *(*unsafe.Pointer)(a), *(*unsafe.Pointer)(b)
			return pa == nil || pb == nil || elem(pa, pb)
		}
	case reflect.Slice:
		return sliceNil(t, buildNil(t.Elem(), building))
	case reflect.Map:
		return mapNil(t, buildNil(t.Elem(), building))
	case reflect.Array:
		return arrayNil(t, buildNil(t.Elem(), building))
	case reflect.Struct:
		return structNil(t, building)
	}
	return nil
}

// sliceNil: nil is null, empty is []; elem compares the elements.
func sliceNil(t reflect.Type, elem nilFunc) nilFunc {
	size := t.Elem().Size()
	return func(a, b unsafe.Pointer) bool {
		sa, sb := (*sliceHeader)(a), (*sliceHeader)(b)
		if (sa.data == nil) != (sb.data == nil) {
			return false
		}
		if elem == nil || sa.len != sb.len {
			return true
		}
		for i := uintptr(0); i < uintptr(sa.len); i++ {
			if !elem(unsafe.Add(sa.data, i*size), unsafe.Add(sb.data, i*size)) {
				return false
			}
		}
		return true
	}
}

// mapNil: nil is null, empty is {}; elem compares the values of a key.
func mapNil(t reflect.Type, elem nilFunc) nilFunc {
	return func(a, b unsafe.Pointer) bool {
		ma, mb := reflect.NewAt(t, a).Elem(), reflect.NewAt(t, b).Elem()
		if ma.IsNil() != mb.IsNil() {
			return false
		}
		if elem == nil {
			return true
		}
		va, vb := reflect.New(t.Elem()).Elem(), reflect.New(t.Elem()).Elem()
		it := ma.MapRange()
		for it.Next() {
			w := mb.MapIndex(it.Key())
			if !w.IsValid() {
				continue
			}
			va.Set(it.Value())
			vb.Set(w)
			if !elem(va.Addr().UnsafePointer(), vb.Addr().UnsafePointer()) {
				return false
			}
		}
		return true
	}
}

func arrayNil(t reflect.Type, elem nilFunc) nilFunc {
	if elem == nil {
		return nil
	}
	size, n := t.Elem().Size(), uintptr(t.Len())
	return func(a, b unsafe.Pointer) bool {
		for i := uintptr(0); i < n; i++ {
			if !elem(unsafe.Add(a, i*size), unsafe.Add(b, i*size)) {
				return false
			}
		}
		return true
	}
}

// structNil compares the struct's JSON fields, each with its tag's
// omitempty, those promoted through embedded pointers included: the diff
// walks those one by one (embedptr.go), and a leaf holding such a struct
// must tell their [] from null as it does the others'.
func structNil(t reflect.Type, building map[reflect.Type]*nilFunc) nilFunc {
	type field struct {
		at fieldAt
		eq nilFunc
	}
	var fields []field
	for _, f := range fieldsOf(t).fields {
		eq := buildNil(f.typ, building)
		if eq == nil {
			continue
		}
		fields = append(fields, field{fieldAtOf(t, f.index), omittable(f.typ, f.omitEmpty, eq)})
	}
	if len(fields) == 0 {
		return nil
	}
	return func(a, b unsafe.Pointer) bool {
		for _, f := range fields {
			fa, fb := f.at(a), f.at(b)
			// Behind a nil embedded pointer, the field is absent. Of two
			// equal structs, both pointers are nil or neither is, as
			// semantic equality compares pointers (see the Pointer case).
			if fa != nil && fb != nil && !f.eq(fa, fb) {
				return false
			}
		}
		return true
	}
}

// fieldAt returns the address of a field of the struct at p, nil when a
// nil embedded pointer on its way leaves it absent.
type fieldAt func(p unsafe.Pointer) unsafe.Pointer

// fieldAtOf compiles the way from struct type t to its field at index: the
// offsets of the structs held by value, added up, between the embedded
// pointers it follows.
func fieldAtOf(t reflect.Type, index []int) fieldAt {
	var hops []uintptr // offsets, each but the last ending at a pointer
	var offset uintptr
	for _, i := range index {
		if t.Kind() == reflect.Pointer {
			hops, offset, t = append(hops, offset), 0, t.Elem()
		}
		sf := t.Field(i)
		offset += sf.Offset
		t = sf.Type
	}
	hops = append(hops, offset)
	return func(p unsafe.Pointer) unsafe.Pointer {
		for _, h := range hops[:len(hops)-1] {
			if p = *(*unsafe.Pointer)(unsafe.Add(p, h)); p == nil {
				return nil
			}
		}
		return unsafe.Add(p, hops[len(hops)-1])
	}
}

// omittable wraps eq, of a field of type t, for omitempty: an empty slice
// or map is left out of JSON, as nil is. (Of two equal values, both are
// empty or neither.)
func omittable(t reflect.Type, omitEmpty bool, eq nilFunc) nilFunc {
	if eq == nil || !omitEmpty || (t.Kind() != reflect.Slice && t.Kind() != reflect.Map) {
		return eq
	}
	return func(a, b unsafe.Pointer) bool {
		return collectionLen(t, a) == 0 || eq(a, b)
	}
}

// collectionLen is the length of the slice or map of type t at p.
func collectionLen(t reflect.Type, p unsafe.Pointer) int {
	if t.Kind() == reflect.Slice {
		return (*sliceHeader)(p).len
	}
	return reflect.NewAt(t, p).Elem().Len()
}
