package v1

import (
	"errors"

	"k8s.io/apimachinery/pkg/runtime"

	"github.com/crdforge/crdforge/testdata/err_hidden_deepcopy/admission"
)

// Both hold through the DeepCopyObject of zz_generated.deepcopy.go, which
// crdforge's load hides: checked without it, each would be an error.
var (
	_ admission.Defaulter = &Gadget{}
	_ admission.Validator = &Gadget{}
)

// Default sets nothing: every field's zero is its default.
func (g *Gadget) Default() {}

// ValidateCreate has the signature of controller-runtime v0.14, and not
// the (admission.Warnings, error) of v0.15: the one error to report.
func (g *Gadget) ValidateCreate() error {
	if g.Spec.Size < 0 {
		return errors.New("size must not be negative")
	}
	return nil
}

// ValidateUpdate validates the new object as ValidateCreate does.
func (g *Gadget) ValidateUpdate(runtime.Object) (admission.Warnings, error) {
	return nil, nil
}

// ValidateDelete accepts every deletion.
func (g *Gadget) ValidateDelete() (admission.Warnings, error) {
	return nil, nil
}
