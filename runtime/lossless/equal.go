package lossless

import (
	"reflect"
	"sync"
	"time"

	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/labels"
)

// semanticEqual reports whether a and b, values of one type, are equal by
// Kubernetes' semantic equality (k8s.io/apimachinery/pkg/api/equality's
// Semantic.DeepEqual): quantities by value (Cmp), metav1.Time and MicroTime
// by instant in UTC, label and field selectors by their String, a nil slice
// or map equal to an empty one, everything else as reflect.DeepEqual does;
// but for raw JSON (apiextensions' JSON, RawExtension's Raw), which it
// compares as the JSON values the bytes spell (see sameJSONValue), where
// Semantic compares the bytes.
//
// It gives Semantic.DeepEqual's answer without its cost: Semantic boxes every
// value it reaches into an interface and calls the Quantity and Time
// functions through reflect.Value.Call, 130 to 160 allocations for one
// widget; this walk allocates nothing on such objects (maps of more than
// smallMap entries whose values are not pointer-shaped excepted, see
// mapEqual). The differential tests in equal_test.go hold the two together.
//
// Where Semantic.DeepEqual panics (a scalar in an unexported field, which it
// cannot read through reflect's Interface) this compares the values instead.
// API objects are trees, so unlike Semantic it keeps no record of visited
// pairs: cyclic values would not terminate.
func semanticEqual(a, b reflect.Value) bool {
	if !a.IsValid() || !b.IsValid() {
		return a.IsValid() == b.IsValid()
	}
	t := a.Type()
	if t != b.Type() {
		return false
	}
	if a.CanAddr() && b.CanAddr() && compiled(t) {
		return eqFor(t)(a.Addr().UnsafePointer(), b.Addr().UnsafePointer())
	}
	return walkEqual(a, b)
}

// compiled reports whether eqFor compares t itself, rather than handing it
// back to walkEqual.
func compiled(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Map, reflect.Interface, reflect.Chan, reflect.Func, reflect.UnsafePointer,
		reflect.Complex64, reflect.Complex128:
		return false
	}
	return true
}

// walkEqual is semanticEqual by a walk with reflect over a and b, of one
// type, for values that are not addressable and for the kinds eqFor leaves
// to it.
func walkEqual(a, b reflect.Value) bool {
	t := a.Type()
	switch t {
	case quantityType:
		return quantityEqual(a, b)
	case timeType, microTimeType:
		// metav1.MicroTime's only field is a time.Time, as metav1.Time's
		// is: Semantic compares a.UTC() == b.UTC() for both.
		return timeEqual(a.Field(0), b.Field(0))
	case labelsSelectorType, fieldsSelectorType:
		return selectorEqual(a, b)
	case rawExtensionType:
		return sameJSONValue(a.Field(0).Bytes(), b.Field(0).Bytes()) && semanticEqual(a.Field(1), b.Field(1))
	}
	if isRawJSON(t) {
		return sameJSONValue(a.Field(0).Bytes(), b.Field(0).Bytes())
	}
	switch a.Kind() {
	case reflect.Struct:
		if sameAddress(a, b) {
			return true
		}
		for i, n := 0, a.NumField(); i < n; i++ {
			if !semanticEqual(a.Field(i), b.Field(i)) {
				return false
			}
		}
		return true
	case reflect.Pointer:
		if a.IsNil() || b.IsNil() {
			return a.IsNil() == b.IsNil()
		}
		return semanticEqual(a.Elem(), b.Elem())
	case reflect.Slice:
		if a.Len() == 0 || b.Len() == 0 {
			return a.Len() == b.Len()
		}
		if a.Len() != b.Len() {
			return false
		}
		if a.Pointer() == b.Pointer() || sameAddress(a, b) {
			return true
		}
		if t.Elem().Kind() == reflect.Uint8 && t.Elem() == byteType {
			return string(a.Bytes()) == string(b.Bytes())
		}
		for i, n := 0, a.Len(); i < n; i++ {
			if !semanticEqual(a.Index(i), b.Index(i)) {
				return false
			}
		}
		return true
	case reflect.Array:
		if sameAddress(a, b) {
			return true
		}
		for i, n := 0, a.Len(); i < n; i++ {
			if !semanticEqual(a.Index(i), b.Index(i)) {
				return false
			}
		}
		return true
	case reflect.Map:
		return mapEqual(a, b)
	case reflect.Interface:
		if a.IsNil() || b.IsNil() {
			return a.IsNil() == b.IsNil()
		}
		return semanticEqual(a.Elem(), b.Elem())
	case reflect.Func:
		return a.IsNil() && b.IsNil()
	case reflect.Bool:
		return a.Bool() == b.Bool()
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return a.Int() == b.Int()
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return a.Uint() == b.Uint()
	case reflect.Float32, reflect.Float64:
		return a.Float() == b.Float()
	case reflect.Complex64, reflect.Complex128:
		return a.Complex() == b.Complex()
	case reflect.String:
		return a.String() == b.String()
	case reflect.Chan, reflect.UnsafePointer:
		return a.Pointer() == b.Pointer()
	}
	return false
}

var (
	quantityType       = reflect.TypeOf((*resource.Quantity)(nil)).Elem()
	timeType           = reflect.TypeOf((*metav1.Time)(nil)).Elem()
	microTimeType      = reflect.TypeOf((*metav1.MicroTime)(nil)).Elem()
	labelsSelectorType = reflect.TypeOf((*labels.Selector)(nil)).Elem()
	fieldsSelectorType = reflect.TypeOf((*fields.Selector)(nil)).Elem()
	byteType           = reflect.TypeOf((*byte)(nil)).Elem()
	stringMapType      = reflect.TypeOf((*map[string]string)(nil)).Elem()
)

// sameAddress is Semantic's short cut: two addressable arrays, slices,
// structs or maps at the same address are equal without a look inside.
func sameAddress(a, b reflect.Value) bool {
	return a.CanAddr() && b.CanAddr() && a.UnsafeAddr() == b.UnsafeAddr()
}

func quantityEqual(a, b reflect.Value) bool {
	var qa, qb *resource.Quantity
	if a.CanAddr() {
		qa = (*resource.Quantity)(a.Addr().UnsafePointer())
	} else {
		q := a.Interface().(resource.Quantity)
		qa = &q
	}
	if b.CanAddr() {
		qb = (*resource.Quantity)(b.Addr().UnsafePointer())
	} else {
		q := b.Interface().(resource.Quantity)
		qb = &q
	}
	return qa.Cmp(*qb) == 0
}

// timeEqual compares two time.Time values as Semantic compares metav1.Time:
// a.UTC() == b.UTC(), which, unlike Time.Equal, also tells apart monotonic
// clock readings (objects decoded from JSON have none).
func timeEqual(a, b reflect.Value) bool {
	//nolint:staticcheck // QF1009: Equal would differ from Semantic's answer on monotonic readings.
	return timeOf(a).UTC() == timeOf(b).UTC()
}

func timeOf(v reflect.Value) time.Time {
	if v.CanAddr() {
		return *(*time.Time)(v.Addr().UnsafePointer())
	}
	return v.Interface().(time.Time)
}

func selectorEqual(a, b reflect.Value) bool {
	if a.IsNil() || b.IsNil() {
		return a.IsNil() == b.IsNil()
	}
	sa, _ := a.Elem().Interface().(interface{ String() string })
	sb, _ := b.Elem().Interface().(interface{ String() string })
	return sa.String() == sb.String()
}

// smallMap is the size up to which mapEqual finds a key of one map in the
// other by walking it, rather than by MapIndex, which copies every value
// that is not pointer-shaped into a new allocation.
const smallMap = 8

func mapEqual(a, b reflect.Value) bool {
	if a.Len() == 0 || b.Len() == 0 {
		return a.Len() == b.Len()
	}
	if a.Len() != b.Len() {
		return false
	}
	if a.Pointer() == b.Pointer() {
		return true
	}
	t := a.Type()
	if t == stringMapType && a.CanInterface() && b.CanInterface() {
		ma, mb := a.Interface().(map[string]string), b.Interface().(map[string]string)
		for k, va := range ma {
			if vb, ok := mb[k]; !ok || va != vb {
				return false
			}
		}
		return true
	}
	s := getMapScratch(t)
	defer putMapScratch(t, s)
	var ia, ib reflect.MapIter
	ia.Reset(a)
	for ia.Next() {
		s.key.SetIterKey(&ia)
		s.a.SetIterValue(&ia)
		var vb reflect.Value
		if a.Len() <= smallMap {
			ib.Reset(b)
			for ib.Next() {
				s.keyB.SetIterKey(&ib)
				if s.keyB.Equal(s.key) {
					s.b.SetIterValue(&ib)
					vb = s.b
					break
				}
			}
		} else {
			vb = b.MapIndex(s.key)
		}
		if !vb.IsValid() || !semanticEqual(s.a, vb) {
			return false
		}
	}
	return true
}

// mapScratch holds settable values of a map type's key and element, into
// which mapEqual copies entries without allocating.
type mapScratch struct{ key, keyB, a, b reflect.Value }

// mapScratches pools a mapScratch per map type: map compares nest (a map of
// structs holding maps), and a conversion compares the same types again and
// again.
var mapScratches sync.Map // reflect.Type → *sync.Pool

func getMapScratch(t reflect.Type) *mapScratch {
	p, ok := mapScratches.Load(t)
	if !ok {
		p, _ = mapScratches.LoadOrStore(t, &sync.Pool{New: func() any {
			return &mapScratch{
				key:  reflect.New(t.Key()).Elem(),
				keyB: reflect.New(t.Key()).Elem(),
				a:    reflect.New(t.Elem()).Elem(),
				b:    reflect.New(t.Elem()).Elem(),
			}
		}})
	}
	return p.(*sync.Pool).Get().(*mapScratch)
}

func putMapScratch(t reflect.Type, s *mapScratch) {
	// Zero the values so the pool keeps nothing of the objects alive.
	s.key.SetZero()
	s.keyB.SetZero()
	s.a.SetZero()
	s.b.SetZero()
	p, _ := mapScratches.Load(t)
	p.(*sync.Pool).Put(s)
}

// sameData reports whether two objects of the same type hold the same data,
// their TypeMeta and ObjectMeta aside, by Kubernetes' semantic equality
// (quantities and times by value, nil and empty collections alike).
// Conversions use it to find out whether a round trip would lose anything.
func sameData(a, b any) bool {
	va, vb := reflect.ValueOf(a).Elem(), reflect.ValueOf(b).Elem()
	for _, i := range dataFields(va.Type()) {
		if !semanticEqual(va.Field(i), vb.Field(i)) {
			return false
		}
	}
	return true
}

// dataFields lists the indexes of a root type's exported fields other than
// its TypeMeta and ObjectMeta. It is worked out once per type: reflect's
// Type.Field allocates.
func dataFields(t reflect.Type) []int {
	if f, ok := dataFieldsOf.Load(t); ok {
		return f.([]int)
	}
	var idx []int
	for i := 0; i < t.NumField(); i++ {
		if f := t.Field(i); f.IsExported() && !isMeta(f.Type) {
			idx = append(idx, i)
		}
	}
	f, _ := dataFieldsOf.LoadOrStore(t, idx)
	return f.([]int)
}

var dataFieldsOf sync.Map // reflect.Type → []int
