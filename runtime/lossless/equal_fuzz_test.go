package lossless_test

import (
	"encoding/binary"
	"math/rand"
	"reflect"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/intstr"
	"sigs.k8s.io/randfill"

	"github.com/crdforge/crdforge/runtime/conversiontest"
	"github.com/crdforge/crdforge/runtime/lossless"
)

// everything holds what API objects hold, for the differential test of the
// semantic equality against equality.Semantic.DeepEqual.
type everything struct {
	metav1.TypeMeta
	metav1.ObjectMeta
	Title      string
	Flag       bool
	Ratio      float64
	Small      int8
	Big        uint64
	Q          resource.Quantity
	QP         *resource.Quantity
	When       metav1.Time
	WhenP      *metav1.Time
	Micro      metav1.MicroTime
	Port       intstr.IntOrString
	Options    runtime.RawExtension
	Bytes      []byte
	Tags       []string
	Parts      []everythingPart
	PartPtrs   []*everythingPart
	ByName     map[string]everythingPart
	ByNumber   map[int32]string
	Ptrs       map[string]*int32
	Quantities map[string]resource.Quantity
	Labels     map[string]string
	Matrix     [][]int16
	Pair       [2]everythingPart
	Conditions []metav1.Condition
	Nested     *everythingNested
}

type everythingPart struct {
	Name   string
	Count  *int32
	Weight *resource.Quantity
	Labels map[string]string
}

type everythingNested struct {
	Parts []everythingPart
	Deep  *everythingNested
}

// differential fills a with filler, b identically (the same seed or fuzz
// input), changes b at a few random places, some changes invisible to
// semantic equality (a quantity or time spelled apart, a nil collection made
// empty) and some not, and requires both equalities to agree.
func differential(t *testing.T, newFiller func() *randfill.Filler, r *rand.Rand) {
	t.Helper()
	var a, b everything
	newFiller().Fill(&a)
	newFiller().Fill(&b)
	if !lossless.SemanticEqual(&a, &b) {
		t.Fatalf("identical objects differ:\n%+v", a)
	}
	for i, n := 0, r.Intn(3); i < n; i++ {
		mutate(reflect.ValueOf(&b).Elem(), r)
	}
	if r.Intn(8) == 0 {
		b.Parts = a.Parts // shared memory
	}
	want := equality.Semantic.DeepEqual(&a, &b)
	if got := lossless.SemanticEqual(&a, &b); got != want {
		t.Fatalf("semanticEqual = %v, equality.Semantic.DeepEqual = %v\na: %+v\nb: %+v", got, want, a, b)
	}
	if got := lossless.SemanticEqual(&b, &a); got != want {
		t.Fatalf("semanticEqual(b, a) = %v, equality.Semantic.DeepEqual = %v", got, want)
	}
}

func filler(f *randfill.Filler) *randfill.Filler {
	return f.NilChance(0.3).NumElements(0, 10).MaxDepth(6).Funcs(conversiontest.DefaultFillFuncs()...)
}

func TestSemanticEqualAgreesWithEqualityOnRandomObjects(t *testing.T) {
	overSeeds(t, 3000, differential)
}

func FuzzSemanticEqualAgreesWithEquality(f *testing.F) {
	f.Add([]byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20})
	overFuzzInput(f, differential)
}

// A randomCheck fills objects with the fillers newFiller makes (each the
// same) and changes them with r.
type randomCheck func(t *testing.T, newFiller func() *randfill.Filler, r *rand.Rand)

// overSeeds runs check with seeds 0 to n-1.
func overSeeds(t *testing.T, n int64, check randomCheck) {
	for seed := int64(0); seed < n; seed++ {
		r := rand.New(rand.NewSource(seed))
		check(t, func() *randfill.Filler { return filler(randfill.NewWithSeed(seed)) }, r)
	}
}

// overFuzzInput fuzzes check: the fillers read the fuzz input, the changes
// are seeded with its first 8 bytes.
func overFuzzInput(f *testing.F, check randomCheck) {
	f.Add([]byte("0123456789abcdef"))
	f.Fuzz(func(t *testing.T, data []byte) {
		var seed int64
		if len(data) >= 8 {
			seed = int64(binary.LittleEndian.Uint64(data))
		}
		r := rand.New(rand.NewSource(seed))
		check(t, func() *randfill.Filler { return filler(randfill.NewFromGoFuzz(data)) }, r)
	})
}

var (
	quantityType = reflect.TypeOf((*resource.Quantity)(nil)).Elem()
	timeType     = reflect.TypeOf((*metav1.Time)(nil)).Elem()
	microType    = reflect.TypeOf((*metav1.MicroTime)(nil)).Elem()
)

// mutate changes v, a settable value, at one random place below it.
func mutate(v reflect.Value, r *rand.Rand) {
	switch v.Type() {
	case quantityType:
		q := v.Addr().Interface().(*resource.Quantity)
		switch r.Intn(3) {
		case 0: // the same value in another form
			*q = *resource.NewMilliQuantity(q.MilliValue(), resource.DecimalExponent)
		case 1:
			*q = *resource.NewScaledQuantity(q.MilliValue()*1000, resource.Micro)
		default:
			q.Add(resource.MustParse("1m"))
		}
		return
	case timeType, microType:
		t := v.Field(0).Addr().Interface().(*time.Time)
		if r.Intn(2) == 0 {
			*t = t.In(time.FixedZone("elsewhere", 3600*r.Intn(12)))
		} else {
			*t = t.Add(time.Duration(1+r.Intn(3)) * time.Microsecond)
		}
		return
	}
	switch v.Kind() {
	case reflect.Struct:
		if v.NumField() > 0 {
			mutate(v.Field(r.Intn(v.NumField())), r)
		}
	case reflect.Pointer:
		switch {
		case v.IsNil():
			v.Set(reflect.New(v.Type().Elem()))
		case r.Intn(4) == 0:
			v.SetZero()
		default:
			// Copy before changing: b was filled apart from a, but keep
			// the mutation local all the same.
			c := reflect.New(v.Type().Elem())
			c.Elem().Set(v.Elem())
			mutate(c.Elem(), r)
			v.Set(c)
		}
	case reflect.Slice:
		switch {
		case v.Len() == 0 && r.Intn(2) == 0:
			if v.IsNil() {
				v.Set(reflect.MakeSlice(v.Type(), 0, 0))
			} else {
				v.SetZero()
			}
		case v.Len() == 0:
			v.Set(reflect.Append(v, reflect.New(v.Type().Elem()).Elem()))
		case r.Intn(5) == 0:
			v.SetLen(v.Len() - 1)
		default:
			c := reflect.MakeSlice(v.Type(), v.Len(), v.Len())
			reflect.Copy(c, v)
			mutate(c.Index(r.Intn(c.Len())), r)
			v.Set(c)
		}
	case reflect.Array:
		if v.Len() > 0 {
			mutate(v.Index(r.Intn(v.Len())), r)
		}
	case reflect.Map:
		if v.Len() == 0 {
			if v.IsNil() {
				v.Set(reflect.MakeMap(v.Type()))
			} else {
				v.SetZero()
			}
			return
		}
		keys := v.MapKeys()
		k := keys[r.Intn(len(keys))]
		if r.Intn(5) == 0 {
			v.SetMapIndex(k, reflect.Value{})
			return
		}
		e := reflect.New(v.Type().Elem()).Elem()
		e.Set(v.MapIndex(k))
		mutate(e, r)
		v.SetMapIndex(k, e)
	case reflect.String:
		v.SetString(v.String() + "x")
	case reflect.Bool:
		v.SetBool(!v.Bool())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(v.Int() + 1)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(v.Uint() + 1)
	case reflect.Float32, reflect.Float64:
		v.SetFloat(v.Float() + 1)
	}
}
