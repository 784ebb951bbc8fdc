package v1alpha1

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/intstr"

	v1 "github.com/crdforge/crdforge/examples/widgets/api/v1"
	"github.com/crdforge/crdforge/runtime/lossless"
)

// fullV1 is a v1 Widget that sets every field, the v1-only ones included:
// warranty, the XLarge size, and a nil replicas that v1alpha1 cannot tell
// from zero.
func fullV1() *v1.Widget {
	weight := resource.MustParse("250m")
	until := metav1.NewTime(time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC))
	return &v1.Widget{
		TypeMeta: metav1.TypeMeta{APIVersion: "widgets.example.com/v1", Kind: "Widget"},
		ObjectMeta: metav1.ObjectMeta{
			Name: "w", Namespace: "ns", UID: "6f1c", ResourceVersion: "42", Generation: 3,
			Labels: map[string]string{"app": "w"}, Annotations: map[string]string{"note": "kept"},
			Finalizers: []string{"widgets.example.com/cleanup"},
		},
		Spec: v1.WidgetSpec{
			DisplayName: "The Widget",
			Size:        v1.SizeXLarge,
			Network:     v1.Network{Host: "widget.local", Port: intstr.FromString("http")},
			Replicas:    nil,
			Parts:       []v1.Part{{Name: "gear", Count: 3, Weight: &weight}, {Name: "spring", Count: 1}},
			Finishes:    map[string]v1.Finish{"top": {Color: "red", Gloss: 80}},
			Labels:      map[string]string{"tier": "gold"},
			Options:     runtime.RawExtension{Raw: []byte(`{"fast":true}`)},
			Warranty:    &v1.Warranty{Years: 5, Until: &until},
		},
		Status: v1.WidgetStatus{ObservedGeneration: 3, Conditions: []metav1.Condition{{
			Type: "Ready", Status: metav1.ConditionTrue, Reason: "Built", LastTransitionTime: until,
		}}},
	}
}

// TestV1OnlyFieldsSurviveV1alpha1 converts a v1 Widget with every v1-only
// field to v1alpha1 and back: the result is identical, and the v1alpha1
// object differs from the v1 one only by the stash annotation.
func TestV1OnlyFieldsSurviveV1alpha1(t *testing.T) {
	in := fullV1()
	var old Widget
	if err := old.ConvertFrom(in.DeepCopy()); err != nil {
		t.Fatal(err)
	}
	if old.Spec.Title != "The Widget" || old.Spec.Host != "widget.local" || old.Spec.Port != intstr.FromString("http") ||
		old.Spec.Size != "XLarge" || old.Spec.Replicas != 0 {
		t.Errorf("v1alpha1 spec = %+v", old.Spec)
	}
	stash, ok := old.Annotations[lossless.Annotation("v1")]
	if !ok || !strings.Contains(stash, `"warranty":{"years":5`) {
		t.Errorf("v1 data not stashed: annotations %v", old.Annotations)
	}
	wantMeta := in.ObjectMeta.DeepCopy()
	wantMeta.Annotations[lossless.Annotation("v1")] = stash
	if !reflect.DeepEqual(old.ObjectMeta, *wantMeta) {
		t.Errorf("metadata changed beyond the stash annotation:\n%+v", old.ObjectMeta)
	}

	var back v1.Widget
	if err := old.ConvertTo(&back); err != nil {
		t.Fatal(err)
	}
	identical(t, &back, in)
}

// identical checks that two objects are the same to Kubernetes: equal by its
// semantic equality, and serialized to the same JSON. (Go values can differ
// only in a time's location: decoding JSON yields local times.)
func identical(t *testing.T, got, want any) {
	t.Helper()
	if !equality.Semantic.DeepEqual(got, want) {
		t.Errorf("objects differ:\n got %+v\nwant %+v", got, want)
	}
	g, err1 := json.Marshal(got)
	w, err2 := json.Marshal(want)
	if err1 != nil || err2 != nil || string(g) != string(w) {
		t.Errorf("JSON differs:\n got %s\nwant %s", g, w)
	}
}

// TestV1alpha1OnlyFieldSurvivesV1 does the same the other way round for
// legacyID, which only v1alpha1 has.
func TestV1alpha1OnlyFieldSurvivesV1(t *testing.T) {
	in := &Widget{
		TypeMeta:   metav1.TypeMeta{APIVersion: "widgets.example.com/v1alpha1", Kind: "Widget"},
		ObjectMeta: metav1.ObjectMeta{Name: "w"},
		Spec:       WidgetSpec{Title: "t", LegacyID: "L-7", Replicas: 2, Host: "h", Port: intstr.FromInt32(80)},
	}
	var hub v1.Widget
	if err := in.DeepCopy().ConvertTo(&hub); err != nil {
		t.Fatal(err)
	}
	if hub.Spec.Replicas == nil || *hub.Spec.Replicas != 2 || hub.Spec.Network.Port != intstr.FromInt32(80) {
		t.Errorf("hub spec = %+v", hub.Spec)
	}
	var back Widget
	if err := back.ConvertFrom(&hub); err != nil {
		t.Fatal(err)
	}
	identical(t, &back, in)
}

// TestChangesThroughAnOlderVersionWin edits a stashed object through
// v1alpha1: the edit is kept, and the v1-only data comes back.
func TestChangesThroughAnOlderVersionWin(t *testing.T) {
	in := fullV1()
	var old Widget
	if err := old.ConvertFrom(in.DeepCopy()); err != nil {
		t.Fatal(err)
	}
	old.Spec.Title = "Renamed through v1alpha1"
	old.Spec.Replicas = 4
	var back v1.Widget
	if err := old.ConvertTo(&back); err != nil {
		t.Fatal(err)
	}
	if back.Spec.DisplayName != "Renamed through v1alpha1" || back.Spec.Replicas == nil || *back.Spec.Replicas != 4 {
		t.Errorf("edits lost: %+v", back.Spec)
	}
	if !equality.Semantic.DeepEqual(back.Spec.Warranty, in.Spec.Warranty) || back.Spec.Size != v1.SizeXLarge {
		t.Errorf("v1-only data lost: warranty %+v, size %s", back.Spec.Warranty, back.Spec.Size)
	}
	if _, ok := back.Annotations[lossless.Annotation("v1")]; ok {
		t.Error("the stash annotation outlived the round trip")
	}
}
