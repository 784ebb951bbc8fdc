package plan_test

import "testing"

// TestNarrowingGuards: what generated code checks of each NarrowSpec field
// before converting it (Guard.Describe, "" for no check). Into v1, the
// storage version, its schema's constraints count; into v2 only what v2's
// Go type cannot hold.
func TestNarrowingGuards(t *testing.T) {
	m, _ := decided(t)
	tests := []struct {
		name, field    string
		toHub, toSpoke string
		requiredToHub  bool
	}{
		{"a string becomes an enum", "NarrowSpec.Mode", "one of A, B", "", false},
		{"an enum gains values", "NarrowSpec.Wide", "", "", false},
		{"an int64 becomes an int32", "NarrowSpec.Size", "-2147483648 to 2147483647", "", false},
		{"a value gains a maximum", "NarrowSpec.Replicas", "at most 10", "", false},
		{"an optional pointer becomes a required value with a minimum", "NarrowSpec.Level", "at least 1", "", true},
		{"an int32 becomes an int64: back, into a version not stored, only the Go type counts", "NarrowSpec.Small", "", "-2147483648 to 2147483647", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			mp := v2Mapping(t, m, tc.field)
			toHub, toSpoke, required := "", "", false
			if g := mp.ToHub.Guard; g != nil {
				toHub, required = g.Describe(), g.Required
			}
			if g := mp.ToSpoke.Guard; g != nil {
				toSpoke = g.Describe()
			}
			if toHub != tc.toHub || toSpoke != tc.toSpoke || required != tc.requiredToHub {
				t.Errorf("%s: %s checks %q (required %v) to the hub and %q back, want %q (%v) and %q",
					tc.name, tc.field, toHub, required, toSpoke, tc.toHub, tc.requiredToHub, tc.toSpoke)
			}
		})
	}
}
