package v1beta1

import (
	"reflect"
	"testing"

	"github.com/crdforge/crdforge/testdata/internalhub/api/kitchen"
)

// TestMethodThroughInternal converts a v1beta1 Recipe to the internal
// version and back with conversion-gen's functions and the hand-written
// ones they call: the steps survive the round trip.
func TestMethodThroughInternal(t *testing.T) {
	s, err := NewScheme()
	if err != nil {
		t.Fatal(err)
	}
	in := &Recipe{Spec: RecipeSpec{Servings: 2, Method: "boil\nsalt"}}
	var mid kitchen.Recipe
	if err := s.Convert(in, &mid, nil); err != nil {
		t.Fatal(err)
	}
	if want := []string{"boil", "salt"}; !reflect.DeepEqual(mid.Spec.Steps, want) {
		t.Fatalf("internal steps %q, want %q", mid.Spec.Steps, want)
	}
	var back Recipe
	if err := s.Convert(&mid, &back, nil); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back.Spec, in.Spec) {
		t.Fatalf("round trip gave %+v, want %+v", back.Spec, in.Spec)
	}
}
