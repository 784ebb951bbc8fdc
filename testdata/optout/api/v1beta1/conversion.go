package v1beta1

import (
	v1 "github.com/crdforge/crdforge/testdata/optout/api/v1"
	"k8s.io/apimachinery/pkg/conversion"
)

// Convert_v1beta1_GaugeStatus_To_v1_GaugeStatus is hand-written: the type opts out.
func Convert_v1beta1_GaugeStatus_To_v1_GaugeStatus(in *GaugeStatus, out *v1.GaugeStatus, s conversion.Scope) error {
	out.Reading = in.Reading
	return nil
}

// Convert_v1_GaugeStatus_To_v1beta1_GaugeStatus is hand-written: the type opts out.
func Convert_v1_GaugeStatus_To_v1beta1_GaugeStatus(in *v1.GaugeStatus, out *GaugeStatus, s conversion.Scope) error {
	out.Reading = in.Reading
	return nil
}
