package lossless

import (
	"reflect"
	"sync"
	"time"
	"unsafe"

	"k8s.io/apimachinery/pkg/api/resource"
)

// eqFunc compares two values of one type, at a and b, as semanticEqual does.
type eqFunc func(a, b unsafe.Pointer) bool

// eqFuncs caches, per type, a comparison built once from the type's shape:
// the fields' offsets, the elements' size, and what to compare each with.
// It spares semanticEqual's walk the reflect calls that find all this out
// again for every value (a widget compares several times faster), and is
// used wherever both values are addressable, which in a conversion they are.
var eqFuncs sync.Map // reflect.Type → eqFunc

func eqFor(t reflect.Type) eqFunc {
	if f, ok := eqFuncs.Load(t); ok {
		return f.(eqFunc)
	}
	f := buildEq(t, map[reflect.Type]*eqFunc{})
	actual, _ := eqFuncs.LoadOrStore(t, f)
	return actual.(eqFunc)
}

// buildEq builds the comparison of t. building holds the types whose
// comparison is being built further up: a type that holds itself (through a
// pointer, slice or map) refers to its own comparison through it.
func buildEq(t reflect.Type, building map[reflect.Type]*eqFunc) eqFunc {
	if f, ok := eqFuncs.Load(t); ok {
		return f.(eqFunc)
	}
	if cell, ok := building[t]; ok {
		return func(a, b unsafe.Pointer) bool { return (*cell)(a, b) }
	}
	cell := new(eqFunc)
	building[t] = cell
	*cell = buildEqOf(t, building)
	delete(building, t)
	return *cell
}

func buildEqOf(t reflect.Type, building map[reflect.Type]*eqFunc) eqFunc {
	switch t {
	case quantityType:
		return func(a, b unsafe.Pointer) bool {
			return (*resource.Quantity)(a).Cmp(*(*resource.Quantity)(b)) == 0
		}
	case timeType, microTimeType:
		// Both hold one time.Time, at offset 0.
		return func(a, b unsafe.Pointer) bool {
			//nolint:staticcheck // QF1009: Equal would differ from Semantic's answer on monotonic readings.
			return (*time.Time)(a).UTC() == (*time.Time)(b).UTC()
		}
	case labelsSelectorType, fieldsSelectorType:
		return reflectEq(t)
	case rawExtensionType:
		return rawExtensionEq()
	}
	if isRawJSON(t) {
		return rawJSONEq
	}
	switch t.Kind() {
	case reflect.Struct:
		type field struct {
			offset uintptr
			eq     eqFunc
		}
		fields := make([]field, 0, t.NumField())
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			if f.Type.Size() == 0 { // nothing to tell apart
				continue
			}
			fields = append(fields, field{f.Offset, buildEq(f.Type, building)})
		}
		return func(a, b unsafe.Pointer) bool {
			if a == b {
				return true
			}
			for _, f := range fields {
				if !f.eq(unsafe.Add(a, f.offset), unsafe.Add(b, f.offset)) {
					return false
				}
			}
			return true
		}
	case reflect.Pointer:
		elem := buildEq(t.Elem(), building)
		return func(a, b unsafe.Pointer) bool {
			pa, pb := *(*unsafe.Pointer)(a), *(*unsafe.Pointer)(b)
			if pa == nil || pb == nil {
				return pa == pb
			}
			return elem(pa, pb)
		}
	case reflect.Slice:
		size := t.Elem().Size()
		if t.Elem() == byteType {
			return func(a, b unsafe.Pointer) bool {
				return string(*(*[]byte)(a)) == string(*(*[]byte)(b))
			}
		}
		elem := buildEq(t.Elem(), building)
		return func(a, b unsafe.Pointer) bool {
			sa, sb := (*sliceHeader)(a), (*sliceHeader)(b)
			if sa.len == 0 || sb.len == 0 || sa.len != sb.len {
				return sa.len == sb.len
			}
			if sa.data == sb.data {
				return true
			}
			for i := uintptr(0); i < uintptr(sa.len); i++ {
				if !elem(unsafe.Add(sa.data, i*size), unsafe.Add(sb.data, i*size)) {
					return false
				}
			}
			return true
		}
	case reflect.Array:
		size, n := t.Elem().Size(), uintptr(t.Len())
		elem := buildEq(t.Elem(), building)
		return func(a, b unsafe.Pointer) bool {
			if a == b {
				return true
			}
			for i := uintptr(0); i < n; i++ {
				if !elem(unsafe.Add(a, i*size), unsafe.Add(b, i*size)) {
					return false
				}
			}
			return true
		}
	case reflect.Bool:
		return func(a, b unsafe.Pointer) bool { return *(*bool)(a) == *(*bool)(b) }
	case reflect.Int8, reflect.Uint8:
		return func(a, b unsafe.Pointer) bool { return *(*uint8)(a) == *(*uint8)(b) }
	case reflect.Int16, reflect.Uint16:
		return func(a, b unsafe.Pointer) bool { return *(*uint16)(a) == *(*uint16)(b) }
	case reflect.Int32, reflect.Uint32:
		return func(a, b unsafe.Pointer) bool { return *(*uint32)(a) == *(*uint32)(b) }
	case reflect.Int, reflect.Uint, reflect.Int64, reflect.Uint64, reflect.Uintptr:
		if t.Size() == 8 {
			return func(a, b unsafe.Pointer) bool { return *(*uint64)(a) == *(*uint64)(b) }
		}
		return func(a, b unsafe.Pointer) bool { return *(*uint32)(a) == *(*uint32)(b) }
	case reflect.Float32:
		return func(a, b unsafe.Pointer) bool { return *(*float32)(a) == *(*float32)(b) }
	case reflect.Float64:
		return func(a, b unsafe.Pointer) bool { return *(*float64)(a) == *(*float64)(b) }
	case reflect.String:
		return func(a, b unsafe.Pointer) bool { return *(*string)(a) == *(*string)(b) }
	case reflect.Map:
		// A map is equal to itself: a conversion that copies a map shares
		// it, and the round trip gives the same map back.
		walk := reflectEq(t)
		return func(a, b unsafe.Pointer) bool {
			return *(*unsafe.Pointer)(a) == *(*unsafe.Pointer)(b) || walk(a, b)
		}
	}
	// Interfaces, channels, functions, complex numbers: the walk.
	return reflectEq(t)
}

func reflectEq(t reflect.Type) eqFunc {
	return func(a, b unsafe.Pointer) bool {
		return walkEqual(reflect.NewAt(t, a).Elem(), reflect.NewAt(t, b).Elem())
	}
}

// sliceHeader is how Go lays out a slice.
type sliceHeader struct {
	data     unsafe.Pointer
	len, cap int
}
