package v2beta1

import (
	"github.com/crdforge/crdforge/testdata/graduated/shapes/alpha"
	"github.com/crdforge/crdforge/testdata/graduated/shapes/beta"
	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	admissionregistrationv1alpha1 "k8s.io/api/admissionregistration/v1alpha1"
	"k8s.io/apimachinery/pkg/conversion"
)

// ParamRef's action is a type of each package, so the two ParamRefs are not
// one declaration made twice: these convert them, as the author would
// write them for conversion-gen.

// Convert_v1alpha1_ParamRef_To_v1_ParamRef converts a v1alpha1 ParamRef.
func Convert_v1alpha1_ParamRef_To_v1_ParamRef(in *admissionregistrationv1alpha1.ParamRef, out *admissionregistrationv1.ParamRef, _ conversion.Scope) error {
	out.Name, out.Namespace = in.Name, in.Namespace
	out.Selector = in.Selector.DeepCopy()
	out.ParameterNotFoundAction = (*admissionregistrationv1.ParameterNotFoundActionType)(in.ParameterNotFoundAction)
	return nil
}

// Convert_v1_ParamRef_To_v1alpha1_ParamRef converts a v1 ParamRef.
func Convert_v1_ParamRef_To_v1alpha1_ParamRef(in *admissionregistrationv1.ParamRef, out *admissionregistrationv1alpha1.ParamRef, _ conversion.Scope) error {
	out.Name, out.Namespace = in.Name, in.Namespace
	out.Selector = in.Selector.DeepCopy()
	out.ParameterNotFoundAction = (*admissionregistrationv1alpha1.ParameterNotFoundActionType)(in.ParameterNotFoundAction)
	return nil
}

// Limit's field has a JSON name of its own in each package: the same Go
// declaration, but not the same shape, so it is converted by hand.

// Convert_alpha_Limit_To_beta_Limit converts an alpha Limit.
func Convert_alpha_Limit_To_beta_Limit(in *alpha.Limit, out *beta.Limit, _ conversion.Scope) error {
	out.Max = in.Max
	return nil
}

// Convert_beta_Limit_To_alpha_Limit converts a beta Limit.
func Convert_beta_Limit_To_alpha_Limit(in *beta.Limit, out *alpha.Limit, _ conversion.Scope) error {
	out.Max = in.Max
	return nil
}
