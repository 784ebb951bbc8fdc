package conversiontest

import (
	"fmt"
	"reflect"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// pointerElems holds maps and slices of pointers, nested, and of itself, so
// that random ones also reach randfill's depth limit.
type pointerElems struct {
	Limits  map[string]*resource.Quantity            `json:"limits,omitempty"`
	Started map[string]*metav1.Time                  `json:"started,omitempty"`
	Aliases map[string]*string                       `json:"aliases,omitempty"`
	Nested  map[string]map[string]*resource.Quantity `json:"nested,omitempty"`
	Members map[string]*pointerElems                 `json:"members,omitempty"`
	Spares  []*pointerLeaf                           `json:"spares,omitempty"`
	Weight  *resource.Quantity                       `json:"weight,omitempty"`
}

type pointerLeaf struct {
	Weight *resource.Quantity `json:"weight,omitempty"`
}

// TestNoNilPointerElements: random maps and slices of pointers hold no nil
// element, which no client can store and controller-gen's deepcopy of a
// map[string]*resource.Quantity panics on; the maps, slices and pointer
// fields themselves are still nil, empty or set.
func TestNoNilPointerElements(t *testing.T) {
	f, err := newFiller(time.Now().UnixNano(), nil, &pointerElems{})
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for i := 0; i < 500; i++ {
		var e pointerElems
		f.Fill(&e)
		if path, ok := nilElement(reflect.ValueOf(e), ""); ok {
			t.Fatalf("%s is a nil element", path)
		}
		seen[fmt.Sprintf("limits nil: %t", e.Limits == nil)] = true
		seen[fmt.Sprintf("limits empty: %t", e.Limits != nil && len(e.Limits) == 0)] = true
		seen[fmt.Sprintf("spares nil: %t", e.Spares == nil)] = true
		seen[fmt.Sprintf("weight nil: %t", e.Weight == nil)] = true
	}
	for _, what := range []string{"limits nil", "limits empty", "spares nil", "weight nil"} {
		for _, b := range []bool{true, false} {
			if k := fmt.Sprintf("%s: %t", what, b); !seen[k] {
				t.Errorf("never %s", k)
			}
		}
	}
}

// nilElement returns the path of the first nil pointer held by a map or a
// slice in v.
func nilElement(v reflect.Value, path string) (string, bool) {
	switch v.Kind() {
	case reflect.Pointer:
		if !v.IsNil() {
			return nilElement(v.Elem(), path)
		}
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if p, ok := nilElement(v.Field(i), path+"."+v.Type().Field(i).Name); ok {
				return p, true
			}
		}
	case reflect.Slice:
		for i := 0; i < v.Len(); i++ {
			if p, ok := element(v.Index(i), fmt.Sprintf("%s[%d]", path, i)); ok {
				return p, true
			}
		}
	case reflect.Map:
		for iter := v.MapRange(); iter.Next(); {
			if p, ok := element(iter.Value(), fmt.Sprintf("%s[%v]", path, iter.Key())); ok {
				return p, true
			}
		}
	}
	return "", false
}

func element(v reflect.Value, path string) (string, bool) {
	if v.Kind() == reflect.Pointer && v.IsNil() {
		return path, true
	}
	return nilElement(v, path)
}
