// Package v1alpha1 is the first version of calls.example.com. Its
// hand-written conversions to the hub use methods that only the generated
// deepcopy files of both packages declare.
// +kubebuilder:object:generate=true
// +groupName=calls.example.com
package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// +kubebuilder:object:root=true

// Gadget is a gadget.
type Gadget struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec GadgetSpec `json:"spec,omitempty"`
}

// GadgetSpec is what a Gadget should be.
type GadgetSpec struct {
	// Size of the gadget.
	Size int32 `json:"size,omitempty"`
	// Colour of the gadget.
	Colour string `json:"colour,omitempty"`
}

// +kubebuilder:object:root=true

// GadgetList is a list of Gadgets.
type GadgetList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Gadget `json:"items"`
}
