package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Paint is how a gadget is painted.
type Paint struct {
	// Color is the paint's color.
	Color string `json:"color"`

	// Gloss is how glossy the paint is, in percent.
	// +crdforge:deprecated:warning="gloss is always 100 now"
	// +optional
	Gloss *int32 `json:"gloss,omitempty"`
}

// GadgetSpec is the desired state of a Gadget.
type GadgetSpec struct {
	// Size is how big the gadget is.
	// +optional
	Size int32 `json:"size,omitempty"`

	// Color was the gadget's only setting once.
	// +crdforge:deprecated:warning="use spec.paint; spec.color goes in v2"
	// +optional
	Color string `json:"color,omitempty"`

	// Paint is how the gadget is painted.
	// +crdforge:nocounterpart
	// +optional
	Paint *Paint `json:"paint,omitempty"`
}

// +kubebuilder:object:root=true
// +kubebuilder:storageversion

// Gadget is a test kind with a field deprecated in two versions, and a
// nested optional one.
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
