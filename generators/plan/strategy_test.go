package plan_test

import (
	"testing"

	"github.com/crdforge/crdforge/markers"
)

// TestStrategyFallback: a kind whose generated conversion needs functions
// nobody has written stays at strategy None, with no entry points, unless
// its author converts it or a marker chooses the strategy.
func TestStrategyFallback(t *testing.T) {
	m, _ := decided(t)
	tests := []struct {
		name, kind  string
		strategy    string
		entryPoints bool // crdforge writes ConvertTo and ConvertFrom
	}{
		{"nothing missing converts through the webhook", "Loss", markers.StrategyWebhook, true},
		{"missing functions, nothing written: None", "Fallback", markers.StrategyNone, false},
		{"missing functions, strategy=Webhook: a build error to come", "Forced", markers.StrategyWebhook, true},
		{"strategy=None: no entry points", "Declined", markers.StrategyNone, false},
		{"missing functions, a Convert_ written for a pair it reaches", "Written", markers.StrategyWebhook, true},
		{"missing functions, its ConvertTo and ConvertFrom written", "Methods", markers.StrategyWebhook, false},
		{"missing functions, another framework's ConvertTo written", "Foreign", markers.StrategyWebhook, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			k := kindOf(t, m, tc.kind)
			s := k.Spokes[0]
			root := s.Pairs[0]
			entryPoints := s.Generates(root.ToHub) && s.Generates(root.ToSpoke)
			if k.Conversion.Strategy != tc.strategy || entryPoints != tc.entryPoints {
				t.Errorf("%s: %s has strategy %s, entry points %v; want %s, %v", tc.name, tc.kind, k.Conversion.Strategy, entryPoints, tc.strategy, tc.entryPoints)
			}
		})
	}
}
