package v1

import (
	"github.com/crdforge/crdforge/testdata/handhub/api/v1beta1"
	"k8s.io/apimachinery/pkg/conversion"
)

// Convert_v1_ThingSpec_To_v1beta1_ThingSpec narrows the size; the stash
// keeps what does not fit.
func Convert_v1_ThingSpec_To_v1beta1_ThingSpec(in *ThingSpec, out *v1beta1.ThingSpec, _ conversion.Scope) error {
	out.Size = int32(in.Size)
	return nil
}

// Convert_v1beta1_ThingSpec_To_v1_ThingSpec widens the size.
func Convert_v1beta1_ThingSpec_To_v1_ThingSpec(in *v1beta1.ThingSpec, out *ThingSpec, _ conversion.Scope) error {
	out.Size = int64(in.Size)
	return nil
}
