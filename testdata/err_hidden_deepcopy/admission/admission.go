// Package admission stands for controller-runtime's webhook/admission as of
// v0.15: a Validator is a runtime.Object whose ValidateCreate returns
// warnings too. An API package written for v0.14 asserts it with
// ValidateCreate() error.
package admission

import "k8s.io/apimachinery/pkg/runtime"

// Warnings are the warnings a validation returns beside its error.
type Warnings []string

// Validator validates the object it is.
type Validator interface {
	runtime.Object
	ValidateCreate() (Warnings, error)
	ValidateUpdate(old runtime.Object) (Warnings, error)
	ValidateDelete() (Warnings, error)
}

// Defaulter sets the defaults of the object it is.
type Defaulter interface {
	runtime.Object
	Default()
}
