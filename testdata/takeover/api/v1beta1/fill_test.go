package v1beta1

import (
	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/randfill"
)

// conversionFillFuncs gives the round-trip tests what v1beta1 round-trips
// exactly: a reference is nil or names a kind, and a version is unset or
// not empty.
func conversionFillFuncs() []any {
	return []any{
		func(s *WidgetSpec, c randfill.Continue) {
			c.FillNoCustom(&s.Size)
			if c.Bool() {
				s.Ref = &corev1.ObjectReference{Kind: "K" + c.String(5), Name: c.String(8)}
			}
			if c.Bool() {
				v := "v" + c.String(4)
				s.Version = &v
			}
		},
	}
}
