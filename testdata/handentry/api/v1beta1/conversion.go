package v1beta1

import (
	"fmt"

	"github.com/crdforge/crdforge/runtime/lossless"
	v1 "github.com/crdforge/crdforge/testdata/handentry/api/v1"
	"sigs.k8s.io/controller-runtime/pkg/conversion"
)

// ConvertTo converts this Widget to the hub version (v1) through the
// generated Convert_ functions, and lets the lossless runtime find out what
// converting back would lose: nothing calls crdforge's lossy_ checks of
// Widget, so none is generated.
func (src *Widget) ConvertTo(dstRaw conversion.Hub) error {
	dst, ok := dstRaw.(*v1.Widget)
	if !ok {
		return fmt.Errorf("unexpected hub %T", dstRaw)
	}
	return lossless.Convert(src, dst,
		lossless.RoundTrip("v1beta1", "v1", Convert_v1beta1_Widget_To_v1_Widget),
		lossless.RoundTrip("v1", "v1beta1", Convert_v1_Widget_To_v1beta1_Widget))
}

// ConvertFrom converts a hub (v1) Widget to this version.
func (dst *Widget) ConvertFrom(srcRaw conversion.Hub) error {
	src, ok := srcRaw.(*v1.Widget)
	if !ok {
		return fmt.Errorf("unexpected hub %T", srcRaw)
	}
	return lossless.Convert(src, dst,
		lossless.RoundTrip("v1", "v1beta1", Convert_v1_Widget_To_v1beta1_Widget),
		lossless.RoundTrip("v1beta1", "v1", Convert_v1beta1_Widget_To_v1_Widget))
}

// ConvertTo converts this Gizmo to the hub version (v1) as crdforge's
// generated ConvertTo would, naming crdforge's lossy_ checks: those stay
// generated.
func (src *Gizmo) ConvertTo(dstRaw conversion.Hub) error {
	dst, ok := dstRaw.(*v1.Gizmo)
	if !ok {
		return fmt.Errorf("unexpected hub %T", dstRaw)
	}
	return lossless.Convert(src, dst,
		lossless.Lossless("v1beta1", "v1", Convert_v1beta1_Gizmo_To_v1_Gizmo),
		lossless.Checked("v1", "v1beta1", Convert_v1_Gizmo_To_v1beta1_Gizmo, lossy_v1_Gizmo_To_v1beta1_Gizmo))
}

// ConvertFrom converts a hub (v1) Gizmo to this version.
func (dst *Gizmo) ConvertFrom(srcRaw conversion.Hub) error {
	src, ok := srcRaw.(*v1.Gizmo)
	if !ok {
		return fmt.Errorf("unexpected hub %T", srcRaw)
	}
	return lossless.Convert(src, dst,
		lossless.Checked("v1", "v1beta1", Convert_v1_Gizmo_To_v1beta1_Gizmo, lossy_v1_Gizmo_To_v1beta1_Gizmo),
		lossless.Lossless("v1beta1", "v1", Convert_v1beta1_Gizmo_To_v1_Gizmo))
}
