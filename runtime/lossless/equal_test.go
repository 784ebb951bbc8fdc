package lossless

import (
	"fmt"
	"reflect"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/intstr"
)

func q(s string) resource.Quantity { return resource.MustParse(s) }

func qp(s string) *resource.Quantity { x := q(s); return &x }

type withSelectors struct {
	L labels.Selector
	F fields.Selector
}

type holder struct {
	Any any
}

// bigMap has more entries than smallMap, so mapEqual looks keys up.
func bigMap(change string) map[string]metav1.Condition {
	m := map[string]metav1.Condition{}
	for i := 0; i < 12; i++ {
		m[fmt.Sprint("c", i)] = metav1.Condition{Type: fmt.Sprint("T", i), Reason: "r"}
	}
	if change != "" {
		c := m["c7"]
		c.Reason = change
		m["c7"] = c
	}
	return m
}

// TestSemanticEqualAgreesWithEquality compares pairs that Kubernetes'
// semantic equality treats specially, and pairs it does not, with both
// functions.
func TestSemanticEqualAgreesWithEquality(t *testing.T) {
	utc := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	shared := []int{1, 2}
	cases := []struct {
		name string
		a, b any
		want bool
	}{
		{"quantities spelled apart", qp("1Gi"), qp("1024Mi"), true},
		{"quantity milli", qp("1"), qp("1000m"), true},
		{"zero quantity and 0", &resource.Quantity{}, qp("0"), true},
		{"different quantities", qp("1"), qp("1001m"), false},
		{"quantity pointers, one nil", &struct{ Q *resource.Quantity }{qp("1")}, &struct{ Q *resource.Quantity }{}, false},
		{"time in another zone", &metav1.Time{Time: utc}, &metav1.Time{Time: utc.In(time.FixedZone("x", 3600))}, true},
		{"different times", &metav1.Time{Time: utc}, &metav1.Time{Time: utc.Add(time.Second)}, false},
		{"micro time", &metav1.MicroTime{Time: utc}, &metav1.MicroTime{Time: utc.In(time.FixedZone("y", -7200))}, true},
		{"micro times apart", &metav1.MicroTime{Time: utc}, &metav1.MicroTime{Time: utc.Add(time.Microsecond)}, false},
		{"nil and empty slice", &[]string{}, new([]string), true},
		{"nil and empty map", &map[string]int{}, new(map[string]int), true},
		{"nil and empty bytes", &[]byte{}, new([]byte), true},
		{"bytes", ptrTo([]byte("ab")), ptrTo([]byte("ac")), false},
		{"slice lengths", &[]int{1}, &[]int{1, 2}, false},
		{"shared slice", &shared, &shared, true},
		{"nil pointer and pointer to zero", &struct{ P *int32 }{}, &struct{ P *int32 }{new(int32)}, false},
		{"string maps", &map[string]string{"a": "1"}, &map[string]string{"a": "1"}, true},
		{"string maps, other key", &map[string]string{"a": "1"}, &map[string]string{"b": "1"}, false},
		{"struct maps", &map[string]metav1.Condition{"a": {Type: "x"}}, &map[string]metav1.Condition{"a": {Type: "x"}}, true},
		{"struct maps, other key", &map[string]metav1.Condition{"a": {Type: "x"}}, &map[string]metav1.Condition{"b": {Type: "x"}}, false},
		{"struct maps, other value", &map[string]metav1.Condition{"a": {Type: "x"}}, &map[string]metav1.Condition{"a": {Type: "y"}}, false},
		{"big maps", ptrTo(bigMap("")), ptrTo(bigMap("")), true},
		{"big maps apart", ptrTo(bigMap("")), ptrTo(bigMap("other")), false},
		{"maps of quantities", &map[string]resource.Quantity{"cpu": q("1")}, &map[string]resource.Quantity{"cpu": q("1000m")}, true},
		{"int keys", &map[int][]int{1: nil}, &map[int][]int{1: {}}, true},
		{"arrays", &[2]int{1, 2}, &[2]int{1, 3}, false},
		{"int or string", &intstr.IntOrString{Type: intstr.Int, IntVal: 1}, ptrTo(intstr.FromInt32(1)), true},
		{"int or string apart", ptrTo(intstr.FromString("1")), ptrTo(intstr.FromInt32(1)), false},
		{"raw extension", &runtime.RawExtension{Raw: []byte(`{}`)}, &runtime.RawExtension{Raw: []byte(`{}`)}, true},
		{"raw extension, nil and empty", &runtime.RawExtension{}, &runtime.RawExtension{Raw: []byte{}}, true},
		{"interfaces, one nil", &holder{1}, &holder{}, false},
		{"interfaces of other types", &holder{int32(1)}, &holder{int64(1)}, false},
		{"interfaces holding quantities", &holder{q("1")}, &holder{q("1000m")}, true},
		{"interfaces holding pointers", &holder{qp("2")}, &holder{qp("2000m")}, true},
		{"floats", ptrTo(0.5), ptrTo(0.25), false},
		{"selectors", &withSelectors{labels.SelectorFromSet(labels.Set{"a": "b"}), fields.OneTermEqualSelector("x", "y")},
			&withSelectors{labels.SelectorFromSet(labels.Set{"a": "b"}), fields.OneTermEqualSelector("x", "y")}, true},
		{"selectors apart", &withSelectors{labels.SelectorFromSet(labels.Set{"a": "b"}), fields.OneTermEqualSelector("x", "y")},
			&withSelectors{labels.SelectorFromSet(labels.Set{"a": "c"}), fields.OneTermEqualSelector("x", "y")}, false},
		{"objects", &metav1.ObjectMeta{Name: "a", Labels: map[string]string{}, CreationTimestamp: metav1.Time{Time: utc}},
			&metav1.ObjectMeta{Name: "a", CreationTimestamp: metav1.Time{Time: utc.Local()}}, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if want := equality.Semantic.DeepEqual(c.a, c.b); want != c.want {
				t.Fatalf("the case is wrong: equality.Semantic says %v", want)
			}
			if got := semanticEqual(reflect.ValueOf(c.a), reflect.ValueOf(c.b)); got != c.want {
				t.Errorf("semanticEqual = %v, equality.Semantic.DeepEqual = %v", got, c.want)
			}
			if got := semanticEqual(reflect.ValueOf(c.b), reflect.ValueOf(c.a)); got != c.want {
				t.Errorf("semanticEqual the other way round = %v, want %v", got, c.want)
			}
		})
	}
}

func ptrTo[T any](v T) *T { return &v }

// TestSemanticEqualAllocatesNothing compares widget-like objects, equal and
// not, with every kind of field a widget has.
func TestSemanticEqualAllocatesNothing(t *testing.T) {
	a, b := widgetLike(), widgetLike()
	va, vb := reflect.ValueOf(a), reflect.ValueOf(b)
	if !semanticEqual(va, vb) {
		t.Fatal("equal widgets differ")
	}
	if n := testing.AllocsPerRun(100, func() { semanticEqual(va, vb) }); n != 0 {
		t.Errorf("comparing equal widgets allocates %.0f times", n)
	}
	b.Spec.Finishes["top"] = finish{Color: "red", Gloss: 81}
	if semanticEqual(va, vb) {
		t.Fatal("different widgets are equal")
	}
	if n := testing.AllocsPerRun(100, func() { semanticEqual(va, vb) }); n != 0 {
		t.Errorf("comparing different widgets allocates %.0f times", n)
	}
	if n := testing.AllocsPerRun(100, func() { sameData(a, b) }); n != 0 {
		t.Errorf("sameData allocates %.0f times", n)
	}
}

type part struct {
	Name   string             `json:"name"`
	Count  int32              `json:"count"`
	Weight *resource.Quantity `json:"weight,omitempty"`
}

type finish struct {
	Color string `json:"color"`
	Gloss int32  `json:"gloss,omitempty"`
}

type network struct {
	Host string             `json:"host,omitempty"`
	Port intstr.IntOrString `json:"port,omitempty"`
}

type widgetSpec struct {
	DisplayName string               `json:"displayName"`
	Network     network              `json:"network,omitempty"`
	Replicas    *int32               `json:"replicas,omitempty"`
	Parts       []part               `json:"parts,omitempty"`
	Finishes    map[string]finish    `json:"finishes,omitempty"`
	Labels      map[string]string    `json:"labels,omitempty"`
	Options     runtime.RawExtension `json:"options,omitempty"`
	Until       *metav1.Time         `json:"until,omitempty"`
}

type widgetStatus struct {
	ObservedGeneration int64              `json:"observedGeneration,omitempty"`
	Conditions         []metav1.Condition `json:"conditions,omitempty"`
}

type widget struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              widgetSpec   `json:"spec,omitempty"`
	Status            widgetStatus `json:"status,omitempty"`
}

func widgetLike() *widget {
	at := metav1.NewTime(time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC))
	return &widget{
		ObjectMeta: metav1.ObjectMeta{Name: "w", Labels: map[string]string{"app": "w"}, CreationTimestamp: at},
		Spec: widgetSpec{
			DisplayName: "The Widget",
			Network:     network{Host: "h", Port: intstr.FromString("http")},
			Replicas:    ptrTo(int32(3)),
			Parts:       []part{{Name: "gear", Count: 3, Weight: qp("250m")}, {Name: "spring", Count: 12, Weight: qp("1500m")}},
			Finishes:    map[string]finish{"top": {Color: "red", Gloss: 80}, "side": {Color: "black"}},
			Labels:      map[string]string{"tier": "gold", "line": "b"},
			Options:     runtime.RawExtension{Raw: []byte(`{"mode":"fast"}`)},
			Until:       &at,
		},
		Status: widgetStatus{ObservedGeneration: 3, Conditions: []metav1.Condition{
			{Type: "Ready", Status: metav1.ConditionTrue, LastTransitionTime: at, Reason: "Built"},
		}},
	}
}
