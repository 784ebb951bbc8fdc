package v1beta1

import (
	v1 "github.com/crdforge/crdforge/testdata/foreigngenerated/api/v1"
)

// StagesToV1 converts stages with stagemap's converter (in
// zz_generated.conversion.go), which the package's clients use directly.
func StagesToV1(in []Stage) []v1.Stage {
	c := &GeneratedStageConverter{}
	out := make([]v1.Stage, len(in))
	for i := range in {
		out[i] = c.ToV1(in[i])
	}
	return out
}
