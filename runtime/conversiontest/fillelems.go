package conversiontest

import (
	"reflect"

	"sigs.k8s.io/randfill"
)

// pointerElementsFillFuncs returns a fill function for every map and slice
// type among types whose elements are pointers: it fills them as randfill
// would, nil with the nil chance and up to maxElements elements, but never
// with a nil element.
//
// No client can store a nil element. JSON writes one as null, and the API
// server drops a null map value and rejects a null list item (unless the
// schema says nullable, which the filler cannot see), so a conversion
// webhook never reads one. And the user's own deepcopy may not take one:
// controller-gen's copy of a map[string]*resource.Quantity calls the
// Quantity's DeepCopy on every value, and panics on nil. randfill alone
// leaves elements nil with its nil chance, and at its depth limit always.
func pointerElementsFillFuncs(types []reflect.Type) []any {
	var out []any
	for _, t := range types {
		if (t.Kind() == reflect.Map || t.Kind() == reflect.Slice) && t.Elem().Kind() == reflect.Pointer {
			out = append(out, fillFunc(t, fillNonNilElements))
		}
	}
	return out
}

// fillNonNilElements fills v, a map or a slice of pointers, with elements
// that each point to a value filled as usual.
func fillNonNilElements(v reflect.Value, c randfill.Continue) {
	if c.Float64() < nilChance {
		v.SetZero()
		return
	}
	t := v.Type()
	n := minElements + c.Intn(maxElements-minElements+1)
	if t.Kind() == reflect.Slice {
		s := reflect.MakeSlice(t, n, n)
		for i := 0; i < n; i++ {
			s.Index(i).Set(newFilled(t.Elem(), c))
		}
		v.Set(s)
		return
	}
	m := reflect.MakeMapWithSize(t, n)
	for i := 0; i < n; i++ {
		key := reflect.New(t.Key())
		c.Fill(key.Interface())
		m.SetMapIndex(key.Elem(), newFilled(t.Elem(), c))
	}
	v.Set(m)
}

// newFilled returns a new pointer of type ptr to a value randfill filled
// (left zero past its depth limit, but never a nil pointer).
func newFilled(ptr reflect.Type, c randfill.Continue) reflect.Value {
	p := reflect.New(ptr.Elem())
	c.Fill(p.Interface())
	return p.Convert(ptr)
}
