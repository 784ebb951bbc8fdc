package plan_test

import (
	"strings"
	"testing"
)

// TestHandWritten: the hand-written Convert_ functions and conversion
// methods the planning finds, which take over from generated ones.
func TestHandWritten(t *testing.T) {
	m, _ := decided(t)
	tests := []struct {
		name, kind, pair string // pair "" for the kind's root methods
		want             string // which of ToHub, ToSpoke (or ConvertTo, ConvertFrom, Foreign) are hand-written
	}{
		{"a Convert_ to the hub alone", "Written", "WrittenPart", "ToHub"},
		{"Convert_ functions both ways", "Loss", "WrittenHolder", "ToHub ToSpoke"},
		{"none", "Loss", "Kept", ""},
		{"controller-runtime's ConvertTo and ConvertFrom", "Methods", "", "ConvertTo ConvertFrom"},
		{"another framework's ConvertTo", "Foreign", "", "ConvertTo Foreign"},
		{"no method", "Loss", "", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := kindOf(t, m, tc.kind).Spokes[0]
			var got []string
			if tc.pair != "" {
				tp := pairNamed(m, "v2", tc.pair)
				if tp.ToHub.Manual != nil {
					got = append(got, "ToHub")
				}
				if tp.ToSpoke.Manual != nil {
					got = append(got, "ToSpoke")
				}
			} else {
				for _, f := range []struct {
					name string
					set  bool
				}{{"ConvertTo", s.ConvertTo != nil}, {"ConvertFrom", s.ConvertFrom != nil}, {"Foreign", s.Foreign != nil}} {
					if f.set {
						got = append(got, f.name)
					}
				}
			}
			if g := strings.Join(got, " "); g != tc.want {
				t.Errorf("%s: %s %s: hand-written %q, want %q", tc.name, tc.kind, tc.pair, g, tc.want)
			}
		})
	}
}
