package v1beta1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// GadgetSpec is the desired state of a Gadget.
type GadgetSpec struct {
	// Size is how big the gadget is.
	// +optional
	Size int32 `json:"size,omitempty"`

	// Color was the gadget's only setting once.
	// +crdforge:deprecated:warning="use spec.paint; spec.color goes in v2"
	// +optional
	Color string `json:"color,omitempty"`
}

// +kubebuilder:object:root=true

// Gadget is a test kind with a field deprecated in two versions.
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
