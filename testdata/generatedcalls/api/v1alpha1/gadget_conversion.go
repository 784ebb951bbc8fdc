package v1alpha1

import (
	v1 "github.com/crdforge/crdforge/testdata/generatedcalls/api/v1"
	"sigs.k8s.io/controller-runtime/pkg/conversion"
)

// convertible pairs a kind of this version with its hub.
type convertible struct {
	spoke conversion.Convertible
	hub   conversion.Hub
}

// convertibles needs the generated DeepCopyObject of both packages.
var convertibles = []convertible{{spoke: &Gadget{}, hub: &v1.Gadget{}}}

// ConvertTo converts this Gadget to the hub.
func (src *Gadget) ConvertTo(dstRaw conversion.Hub) error {
	dst := dstRaw.(*v1.Gadget)
	dst.ObjectMeta = src.ObjectMeta
	dst.Spec = v1.GadgetSpec{Size: src.Spec.Size, Colour: src.Spec.Colour}
	return nil
}

// ConvertFrom converts the hub to this Gadget.
func (dst *Gadget) ConvertFrom(srcRaw conversion.Hub) error {
	src := srcRaw.(*v1.Gadget)
	dst.ObjectMeta = src.ObjectMeta
	dst.Spec = GadgetSpec{Size: src.Spec.Size, Colour: src.Spec.Colour}
	return nil
}
