package v1beta1

import (
	v1 "github.com/crdforge/crdforge/testdata/apidocs/api/v1"
	"sigs.k8s.io/randfill"
)

// conversionFillFuncs gives the round-trip tests replicas that v1, the
// storage version, accepts: 1 to 1000, on both sides. Any other converts to
// an error, as the narrowing says; with GizmoSpec's conversion hand-written,
// the generated tests leave such values to its author.
func conversionFillFuncs() []any {
	return []any{
		func(s *GizmoSpec, c randfill.Continue) {
			c.FillNoCustom(s)
			s.Replicas = 1 + int64(c.Intn(1000))
		},
		func(s *v1.GizmoSpec, c randfill.Continue) {
			c.FillNoCustom(s)
			s.Replicas = 1 + int32(c.Intn(1000))
		},
	}
}
