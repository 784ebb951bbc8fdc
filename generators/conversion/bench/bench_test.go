package bench_test

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/intstr"

	v1 "github.com/crdforge/crdforge/examples/widgets/api/v1"
	v1alpha1 "github.com/crdforge/crdforge/examples/widgets/api/v1alpha1"
	cgv1 "github.com/crdforge/crdforge/generators/conversion/bench/testdata/convgen/v1"
	cgv1alpha1 "github.com/crdforge/crdforge/generators/conversion/bench/testdata/convgen/v1alpha1"
	"github.com/crdforge/crdforge/runtime/lossless"
)

// The inputs. One logical widget, fully populated, written once with
// crdforge's example types and decoded from the same JSON into both the
// example types and conversion-gen's copies, so both implementations convert
// byte-for-byte the same data (same Quantity representation, same RawExtension
// bytes, same times).

func meta() metav1.ObjectMeta {
	return metav1.ObjectMeta{
		Name: "w", Namespace: "ns", UID: "6f1c9b1e-2d2a-4d7e-9b8e-1f2a3b4c5d6e", ResourceVersion: "4242", Generation: 3,
		CreationTimestamp: metav1.NewTime(time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)),
		Labels:            map[string]string{"app": "w", "team": "forge"},
		Annotations:       map[string]string{"note": "kept"},
	}
}

func parts[P any](mk func(name string, count int32, w *resource.Quantity) P) []P {
	q := func(s string) *resource.Quantity { x := resource.MustParse(s); return &x }
	return []P{mk("gear", 3, q("250m")), mk("spring", 12, q("1500m")), mk("housing", 1, q("2"))}
}

func conditions() []metav1.Condition {
	t := metav1.NewTime(time.Date(2026, 1, 2, 3, 5, 0, 0, time.UTC))
	return []metav1.Condition{
		{Type: "Ready", Status: metav1.ConditionTrue, ObservedGeneration: 3, LastTransitionTime: t, Reason: "Built", Message: "all parts in place"},
		{Type: "Degraded", Status: metav1.ConditionFalse, ObservedGeneration: 3, LastTransitionTime: t, Reason: "Healthy", Message: ""},
	}
}

var options = runtime.RawExtension{Raw: []byte(`{"mode":"fast","retries":3,"zones":["a","b"]}`)}

// spokeWidget is the v1alpha1 input of spoke→hub. It sets LegacyID, which v1
// cannot hold: crdforge's ConvertTo stashes it, the Convert_ functions of both
// implementations drop it. lossless clears it.
func spokeWidget(lossless bool) *v1alpha1.Widget {
	w := &v1alpha1.Widget{
		TypeMeta:   metav1.TypeMeta{APIVersion: "widgets.example.com/v1alpha1", Kind: "Widget"},
		ObjectMeta: meta(),
		Spec: v1alpha1.WidgetSpec{
			Title: "The Widget", Size: v1alpha1.SizeLarge,
			Host: "widget.local", Port: intstr.FromString("http"),
			LegacyID: "W-0042", Replicas: 3,
			Parts: parts(func(n string, c int32, w *resource.Quantity) v1alpha1.Part {
				return v1alpha1.Part{Name: n, Count: c, Weight: w}
			}),
			Finishes: map[string]v1alpha1.Finish{"top": {Color: "red", Gloss: 80}, "side": {Color: "black", Gloss: 10}},
			Labels:   map[string]string{"tier": "gold", "line": "b"},
			Options:  options,
		},
		Status: v1alpha1.WidgetStatus{ObservedGeneration: 3, Conditions: conditions()},
	}
	if lossless {
		w.Spec.LegacyID = ""
	}
	return w
}

// hubWidget is the v1 input of hub→spoke: the same widget as spokeWidget in
// v1's shape, plus the v1-only warranty, which v1alpha1 cannot hold (crdforge's
// ConvertFrom stashes it, the Convert_ functions drop it). lossless clears it.
func hubWidget(lossless bool) *v1.Widget {
	until := metav1.NewTime(time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC))
	replicas := int32(3)
	w := &v1.Widget{
		TypeMeta:   metav1.TypeMeta{APIVersion: "widgets.example.com/v1", Kind: "Widget"},
		ObjectMeta: meta(),
		Spec: v1.WidgetSpec{
			DisplayName: "The Widget", Size: v1.SizeLarge,
			Network:  v1.Network{Host: "widget.local", Port: intstr.FromString("http")},
			Replicas: &replicas,
			Parts: parts(func(n string, c int32, w *resource.Quantity) v1.Part {
				return v1.Part{Name: n, Count: c, Weight: w}
			}),
			Finishes: map[string]v1.Finish{"top": {Color: "red", Gloss: 80}, "side": {Color: "black", Gloss: 10}},
			Labels:   map[string]string{"tier": "gold", "line": "b"},
			Options:  options,
			Warranty: &v1.Warranty{Years: 5, Until: &until},
		},
		Status: v1.WidgetStatus{ObservedGeneration: 3, Conditions: conditions()},
	}
	if lossless {
		w.Spec.Warranty = nil
	}
	return w
}

// decode gives a fresh copy of v, as a T, through JSON.
func decode[T any](tb testing.TB, v any) *T {
	tb.Helper()
	raw, err := json.Marshal(v)
	if err != nil {
		tb.Fatal(err)
	}
	out := new(T)
	if err := json.Unmarshal(raw, out); err != nil {
		tb.Fatal(err)
	}
	return out
}

// destAllocs counts the heap allocations that v's own data needs when v owns
// it, as a deep copy of v makes it: one per non-nil pointer, one per non-empty
// slice's backing array, and for a map what Go's runtime spends on one (2 for
// up to 8 entries: the map header and one group; 1 for an empty map; 4 for a
// map of one table, 9 to 1024 entries). Strings are not counted: conversions
// and deep copies alike share them. time.Time is a leaf (its *Location is
// shared). The object itself is not counted: the caller provides it.
// TestDestAllocsMatchesDeepCopy checks the count against DeepCopyInto.
func destAllocs(v any) int { return walk(reflect.ValueOf(v).Elem()) }

var timeType = reflect.TypeFor[time.Time]()

func walk(v reflect.Value) int {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() || v.Type().Elem().Size() == 0 {
			return 0
		}
		return 1 + walk(v.Elem())
	case reflect.Interface:
		if v.IsNil() {
			return 0
		}
		return walk(v.Elem())
	case reflect.Slice:
		if v.Len() == 0 {
			return 0
		}
		n := 1
		for i := range v.Len() {
			n += walk(v.Index(i))
		}
		return n
	case reflect.Array:
		n := 0
		for i := range v.Len() {
			n += walk(v.Index(i))
		}
		return n
	case reflect.Map:
		if v.IsNil() {
			return 0
		}
		n := 4
		switch l := v.Len(); {
		case l == 0:
			n = 1
		case l <= 8:
			n = 2
		}
		for it := v.MapRange(); it.Next(); {
			n += walk(it.Key()) + walk(it.Value())
		}
		return n
	case reflect.Struct:
		if v.Type() == timeType {
			return 0
		}
		n := 0
		for i := range v.NumField() {
			n += walk(v.Field(i))
		}
		return n
	}
	return 0
}

// stashAllocs counts the stash annotations on m: each is a new string the
// destination owns (the JSON of the stashed data), which destAllocs does not
// count since it skips strings.
func stashAllocs(m *metav1.ObjectMeta) int {
	n := 0
	for k := range m.Annotations {
		if strings.HasPrefix(k, lossless.AnnotationPrefix) {
			n++
		}
	}
	return n
}

// The benchmark. Every iteration converts into a fresh, zero destination
// declared in the loop: allocs/op counts what the conversion allocates; the
// destination struct itself is on the stack unless the call makes it escape
// (ConvertTo and ConvertFrom take it as an interface: there it escapes, one of
// the allocations reported). dest-allocs/op is destAllocs of the result (plus
// the stash strings), the floor for a conversion whose result owns its memory.

func BenchmarkConvert(b *testing.B) {
	spoke, hub := spokeWidget(false), hubWidget(false)
	cgSpoke, cgHub := decode[cgv1alpha1.Widget](b, spoke), decode[cgv1.Widget](b, hub)
	spoke, hub = decode[v1alpha1.Widget](b, spoke), decode[v1.Widget](b, hub)
	spokeLossless, hubLossless := decode[v1alpha1.Widget](b, spokeWidget(true)), decode[v1.Widget](b, hubWidget(true))

	// Each loop calls the conversion directly, not through a func value, so
	// that the compiler can keep out on the stack where the conversion lets it.

	b.Run("direction=spoke-to-hub/impl=crdforge", func(b *testing.B) {
		var first v1.Widget
		check(b, v1alpha1.Convert_v1alpha1_Widget_To_v1_Widget(spoke, &first, nil))
		b.ReportAllocs()
		for b.Loop() {
			var out v1.Widget
			check(b, v1alpha1.Convert_v1alpha1_Widget_To_v1_Widget(spoke, &out, nil))
		}
		b.ReportMetric(float64(destAllocs(&first)), "dest-allocs/op")
	})
	for _, c := range []struct {
		name string
		in   *v1alpha1.Widget
	}{{"crdforge-ConvertTo", spoke}, {"crdforge-ConvertTo-lossless", spokeLossless}} {
		b.Run("direction=spoke-to-hub/impl="+c.name, func(b *testing.B) {
			var first v1.Widget
			check(b, c.in.ConvertTo(&first))
			b.ReportAllocs()
			for b.Loop() {
				var out v1.Widget
				check(b, c.in.ConvertTo(&out))
			}
			b.ReportMetric(float64(destAllocs(&first)+stashAllocs(&first.ObjectMeta)), "dest-allocs/op")
		})
	}
	b.Run("direction=spoke-to-hub/impl=conversion-gen", func(b *testing.B) {
		var first cgv1.Widget
		check(b, cgv1alpha1.Convert_v1alpha1_Widget_To_v1_Widget(cgSpoke, &first, nil))
		b.ReportAllocs()
		for b.Loop() {
			var out cgv1.Widget
			check(b, cgv1alpha1.Convert_v1alpha1_Widget_To_v1_Widget(cgSpoke, &out, nil))
		}
		b.ReportMetric(float64(destAllocs(&first)), "dest-allocs/op")
	})

	// Not a conversion: the cost of a deep copy of the destination the
	// conversions above make, for reference: a conversion whose result owns its
	// memory cannot do much better.
	b.Run("direction=spoke-to-hub/impl=DeepCopyInto-reference", func(b *testing.B) {
		ref := decode[v1.Widget](b, hubWidget(true))
		b.ReportAllocs()
		for b.Loop() {
			var out v1.Widget
			ref.DeepCopyInto(&out)
		}
		b.ReportMetric(float64(destAllocs(ref)), "dest-allocs/op")
	})

	b.Run("direction=hub-to-spoke/impl=crdforge", func(b *testing.B) {
		var first v1alpha1.Widget
		check(b, v1alpha1.Convert_v1_Widget_To_v1alpha1_Widget(hub, &first, nil))
		b.ReportAllocs()
		for b.Loop() {
			var out v1alpha1.Widget
			check(b, v1alpha1.Convert_v1_Widget_To_v1alpha1_Widget(hub, &out, nil))
		}
		b.ReportMetric(float64(destAllocs(&first)), "dest-allocs/op")
	})
	for _, c := range []struct {
		name string
		in   *v1.Widget
	}{{"crdforge-ConvertFrom", hub}, {"crdforge-ConvertFrom-lossless", hubLossless}} {
		b.Run("direction=hub-to-spoke/impl="+c.name, func(b *testing.B) {
			var first v1alpha1.Widget
			check(b, first.ConvertFrom(c.in))
			b.ReportAllocs()
			for b.Loop() {
				var out v1alpha1.Widget
				check(b, out.ConvertFrom(c.in))
			}
			b.ReportMetric(float64(destAllocs(&first)+stashAllocs(&first.ObjectMeta)), "dest-allocs/op")
		})
	}
	b.Run("direction=hub-to-spoke/impl=conversion-gen", func(b *testing.B) {
		var first cgv1alpha1.Widget
		check(b, cgv1alpha1.Convert_v1_Widget_To_v1alpha1_Widget(cgHub, &first, nil))
		b.ReportAllocs()
		for b.Loop() {
			var out cgv1alpha1.Widget
			check(b, cgv1alpha1.Convert_v1_Widget_To_v1alpha1_Widget(cgHub, &out, nil))
		}
		b.ReportMetric(float64(destAllocs(&first)), "dest-allocs/op")
	})
	b.Run("direction=hub-to-spoke/impl=DeepCopyInto-reference", func(b *testing.B) {
		ref := decode[v1alpha1.Widget](b, spokeWidget(true))
		b.ReportAllocs()
		for b.Loop() {
			var out v1alpha1.Widget
			ref.DeepCopyInto(&out)
		}
		b.ReportMetric(float64(destAllocs(ref)), "dest-allocs/op")
	})
}

func check(tb testing.TB, err error) {
	if err != nil {
		tb.Helper()
		tb.Fatal(err)
	}
}
