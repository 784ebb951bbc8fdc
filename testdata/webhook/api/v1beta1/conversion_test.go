package v1beta1

import (
	v1 "github.com/crdforge/crdforge/testdata/webhook/api/v1"
	"sigs.k8s.io/randfill"
)

// conversionFillFuncs gives the round-trip tests sizes the hand-written
// conversions accept.
func conversionFillFuncs() []any {
	return []any{
		func(s *WidgetSpec, c randfill.Continue) {
			c.FillNoCustom(s)
			s.Size = sizes[c.Intn(len(sizes))]
		},
		func(s *v1.WidgetSpec, c randfill.Continue) {
			c.FillNoCustom(s)
			s.Size = int32(c.Intn(len(sizes)))
		},
	}
}
