package v1alpha1

import "k8s.io/apimachinery/pkg/runtime"

// SchemeBuilder collects the functions that add this package's conversions to
// a scheme; conversion-gen's output registers RegisterConversions with it.
var (
	SchemeBuilder      runtime.SchemeBuilder
	localSchemeBuilder = &SchemeBuilder
	// AddToScheme adds this package's conversions to a scheme.
	AddToScheme = localSchemeBuilder.AddToScheme
)
