package v1beta1

import (
	"k8s.io/apimachinery/pkg/runtime"
)

// NewScheme returns a scheme that converts this version through the
// internal one, with conversion-gen's functions.
func NewScheme() (*runtime.Scheme, error) {
	s := runtime.NewScheme()
	if err := AddToScheme(s); err != nil {
		return nil, err
	}
	return s, RegisterConversions(s)
}
