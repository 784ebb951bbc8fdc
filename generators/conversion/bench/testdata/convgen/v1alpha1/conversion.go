package v1alpha1

import (
	v1 "github.com/crdforge/crdforge/generators/conversion/bench/testdata/convgen/v1"
	conversion "k8s.io/apimachinery/pkg/conversion"
)

// The conversions conversion-gen asks for ("the following fields need manual
// conversion"), written the way hand-written conversions beside conversion-gen's
// output usually are: call the generated autoConvert_ function, then map the
// fields it cannot. The mapping is the one crdforge derives from the
// +crdforge:hubfield markers on the v1alpha1 types:
//
//	Title ↔ DisplayName, Host ↔ Network.Host, Port ↔ Network.Port
//
// LegacyID (v1alpha1 only) and Warranty (v1 only) have no counterpart and are
// dropped, as crdforge's Convert_ functions drop them (its ConvertTo and
// ConvertFrom keep them in a stash instead; conversion-gen has no such thing).

// Convert_v1alpha1_WidgetSpec_To_v1_WidgetSpec converts v1alpha1 WidgetSpec to v1 WidgetSpec.
//
//nolint:revive // var-naming: the name is conversion-gen's convention, by which conversion-gen finds this hand-written conversion and its generated code calls it.
func Convert_v1alpha1_WidgetSpec_To_v1_WidgetSpec(in *WidgetSpec, out *v1.WidgetSpec, s conversion.Scope) error {
	if err := autoConvert_v1alpha1_WidgetSpec_To_v1_WidgetSpec(in, out, s); err != nil {
		return err
	}
	out.DisplayName = in.Title
	out.Network.Host = in.Host
	out.Network.Port = in.Port
	// in.LegacyID has no counterpart in v1: dropped.
	return nil
}

// Convert_v1_WidgetSpec_To_v1alpha1_WidgetSpec converts v1 WidgetSpec to v1alpha1 WidgetSpec.
//
//nolint:revive // var-naming: the name is conversion-gen's convention, by which conversion-gen finds this hand-written conversion and its generated code calls it.
func Convert_v1_WidgetSpec_To_v1alpha1_WidgetSpec(in *v1.WidgetSpec, out *WidgetSpec, s conversion.Scope) error {
	if err := autoConvert_v1_WidgetSpec_To_v1alpha1_WidgetSpec(in, out, s); err != nil {
		return err
	}
	out.Title = in.DisplayName
	out.Host = in.Network.Host
	out.Port = in.Network.Port
	// in.Warranty has no counterpart in v1alpha1: dropped.
	return nil
}
