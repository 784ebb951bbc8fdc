package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// GadgetSpec is the desired state of a Gadget.
type GadgetSpec struct {
	// Size is the gadget's size.
	Size int32 `json:"size"` // +crdforge:description:omit
	// Color is the gadget's colour.
	// +crdforge:descripton:omit
	Color string `json:"color"`
	// Weight is the gadget's weight.
	// +crdforge:description:omit=true
	Weight int32 `json:"weight"`
}

// +kubebuilder:object:root=true

// Gadget is a test kind.
type Gadget struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec GadgetSpec `json:"spec,omitempty"`
}

// +kubebuilder:object:root=true

// GadgetList is a list of Gadgets.
type GadgetList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Gadget `json:"items"`
}

// +crdforge:description:omit
func (g *Gadget) Describe() string { return g.Name }
