package v1

import (
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
	logf "sigs.k8s.io/controller-runtime/pkg/log"
)

// Object is what every kind of this version is; an interface, it has no
// deepcopy.
// +kubebuilder:object:generate=false
type Object interface {
	runtime.Object
	metav1.Object
}

// DeepCopyObject is in zz_generated.deepcopy.go, which the load hides.
var _ Object = &Gadget{}

var gadgetlog = logf.Log.WithName("gadget-resource")

// Hub marks Gadget as the hub of its conversions.
func (*Gadget) Hub() {}

// validate checks a Gadget as its validating webhook would.
func (g *Gadget) validate() error {
	gadgetlog.Info("validate", "name", g.Name)
	var errs field.ErrorList
	if g.Spec.Size < 0 {
		errs = append(errs, field.Invalid(field.NewPath("spec", "size"), g.Spec.Size, "must not be negative"))
	}
	for key := range g.Labels {
		for _, msg := range validation.IsQualifiedName(key) {
			errs = append(errs, field.Invalid(field.NewPath("metadata", "labels").Key(key), key, msg))
		}
	}
	if len(errs) == 0 {
		return nil
	}
	return apierrors.NewInvalid(schema.GroupKind{Group: "calls.example.com", Kind: "Gadget"}, g.Name, errs)
}
