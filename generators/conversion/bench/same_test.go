package bench_test

import (
	"encoding/json"
	"testing"

	v1 "github.com/crdforge/crdforge/examples/widgets/api/v1"
	v1alpha1 "github.com/crdforge/crdforge/examples/widgets/api/v1alpha1"
	cgv1 "github.com/crdforge/crdforge/generators/conversion/bench/testdata/convgen/v1"
	cgv1alpha1 "github.com/crdforge/crdforge/generators/conversion/bench/testdata/convgen/v1alpha1"
)

// jsonWithoutTypeMeta is obj's JSON without apiVersion and kind: crdforge's
// Convert_ functions set the destination's TypeMeta, conversion-gen's leave it
// to the scheme that calls them.
func jsonWithoutTypeMeta(t *testing.T, obj any) string {
	t.Helper()
	raw, err := json.Marshal(obj)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	delete(m, "apiVersion")
	delete(m, "kind")
	raw, err = json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return string(raw)
}

// TestSameResult checks that, on the benchmark's inputs, crdforge's and
// conversion-gen's conversions make the same object in each direction, and
// that it is the expected one: the other version's form of the same widget,
// less the field the destination cannot hold (LegacyID one way, Warranty the
// other).
func TestSameResult(t *testing.T) {
	spoke, hub := spokeWidget(false), hubWidget(false)
	cgSpoke, cgHub := decode[cgv1alpha1.Widget](t, spoke), decode[cgv1.Widget](t, hub)
	spoke, hub = decode[v1alpha1.Widget](t, spoke), decode[v1.Widget](t, hub)

	t.Run("spoke-to-hub", func(t *testing.T) {
		var crd v1.Widget
		var cg cgv1.Widget
		check(t, v1alpha1.Convert_v1alpha1_Widget_To_v1_Widget(spoke, &crd, nil))
		check(t, cgv1alpha1.Convert_v1alpha1_Widget_To_v1_Widget(cgSpoke, &cg, nil))
		got, want, expected := jsonWithoutTypeMeta(t, &crd), jsonWithoutTypeMeta(t, &cg), jsonWithoutTypeMeta(t, hubWidget(true))
		if got != want {
			t.Errorf("crdforge:\n%s\nconversion-gen:\n%s", got, want)
		}
		if got != expected {
			t.Errorf("crdforge:\n%s\nexpected:\n%s", got, expected)
		}
	})
	t.Run("hub-to-spoke", func(t *testing.T) {
		var crd v1alpha1.Widget
		var cg cgv1alpha1.Widget
		check(t, v1alpha1.Convert_v1_Widget_To_v1alpha1_Widget(hub, &crd, nil))
		check(t, cgv1alpha1.Convert_v1_Widget_To_v1alpha1_Widget(cgHub, &cg, nil))
		got, want, expected := jsonWithoutTypeMeta(t, &crd), jsonWithoutTypeMeta(t, &cg), jsonWithoutTypeMeta(t, spokeWidget(true))
		if got != want {
			t.Errorf("crdforge:\n%s\nconversion-gen:\n%s", got, want)
		}
		if got != expected {
			t.Errorf("crdforge:\n%s\nexpected:\n%s", got, expected)
		}
	})
}

var (
	sinkHub   *v1.Widget
	sinkSpoke *v1alpha1.Widget
)

// TestDestAllocsMatchesDeepCopy checks destAllocs, the benchmark's
// dest-allocs/op, against what a deep copy of the converted objects (and of
// the hub input, which has the warranty's pointers too) allocates, the object
// itself aside.
func TestDestAllocsMatchesDeepCopy(t *testing.T) {
	hubIn := decode[v1.Widget](t, hubWidget(false))
	var hubOut v1.Widget
	var spokeOut v1alpha1.Widget
	check(t, v1alpha1.Convert_v1alpha1_Widget_To_v1_Widget(decode[v1alpha1.Widget](t, spokeWidget(false)), &hubOut, nil))
	check(t, v1alpha1.Convert_v1_Widget_To_v1alpha1_Widget(hubIn, &spokeOut, nil))
	for _, c := range []struct {
		name     string
		obj      any
		deepCopy func()
	}{
		{"spoke-to-hub result", &hubOut, func() { sinkHub = hubOut.DeepCopy() }},
		{"hub-to-spoke result", &spokeOut, func() { sinkSpoke = spokeOut.DeepCopy() }},
		{"hub input", hubIn, func() { sinkHub = hubIn.DeepCopy() }},
	} {
		want := int(testing.AllocsPerRun(10, c.deepCopy)) - 1
		if got := destAllocs(c.obj); got != want {
			t.Errorf("%s: destAllocs = %d, DeepCopy allocates %d besides the object", c.name, got, want)
		} else {
			t.Logf("%s: %d allocations", c.name, got)
		}
	}
}
