package plan_test

import (
	"testing"

	"github.com/crdforge/crdforge/generators/model"
)

// TestLoss: what each direction of LossSpec's pairs can lose, and how
// generated code finds out: checking the source's fields (LossChecked), or
// only by converting back (LossRoundTrip).
func TestLoss(t *testing.T) {
	m, _ := decided(t)
	tests := []struct {
		name, pair     string
		toHub, toSpoke model.Loss
	}{
		{"the same fields lose nothing", "Kept", model.LossNone, model.LossNone},
		{"a field the hub lacks is lost on the way there", "Dropped", model.LossChecked, model.LossNone},
		{"a nil pointer becomes a value", "PointerHolder", model.LossChecked, model.LossNone},
		{"an opted-out field is converted by hand", "OptedHolder", model.LossRoundTrip, model.LossRoundTrip},
		{"hand-written Convert_ functions both ways", "WrittenHolder", model.LossRoundTrip, model.LossRoundTrip},
		{"a moved field leaves its hub siblings behind", "MovedHolder", model.LossNone, model.LossChecked},
		{"a moved field behind a pointer leaves a nil pointer behind", "ThroughHolder", model.LossNone, model.LossChecked},
		{"a struct converted whole is checked by a round trip", "WholeHolder", model.LossRoundTrip, model.LossNone},
		{"a list of a lossy pair loses what the pair does", "ManyHolder", model.LossChecked, model.LossNone},
		{"a field through a pair checked by a round trip is too", "LossSpec", model.LossRoundTrip, model.LossRoundTrip},
		// Seed 45 of the random APIs (issue 58): the pair alone loses the
		// moved field, the enclosing struct carries it.
		{"a field moved out of a nested pair is carried by its parent", "CarriedHolder", model.LossNone, model.LossNone},
		{"the nested pair alone loses the moved field", "CarriedSize", model.LossNone, model.LossChecked},
		{"a nested pair that loses more than the parent carries", "PartlyHolder", model.LossNone, model.LossChecked},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tp := pairNamed(m, "v2", tc.pair)
			if tp == nil {
				t.Errorf("%s: no pair %s", tc.name, tc.pair)
				return
			}
			if tp.ToHub.Loss != tc.toHub || tp.ToSpoke.Loss != tc.toSpoke {
				t.Errorf("%s: %s loses %s to the hub and %s back, want %s and %s", tc.name, tc.pair, losses[tp.ToHub.Loss], losses[tp.ToSpoke.Loss], losses[tc.toHub], losses[tc.toSpoke])
			}
		})
	}
}
