package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// SprocketSpec is the desired state of a Sprocket.
type SprocketSpec struct {
	// Teeth is how many teeth it has.
	// +optional
	Teeth int32 `json:"teeth,omitempty"`
}

// +kubebuilder:object:root=true
// +kubebuilder:unservedversion

// Sprocket is a test kind whose v1alpha1 version shows how versions retire.
type Sprocket struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec SprocketSpec `json:"spec,omitempty"`
}

// +kubebuilder:object:root=true

// SprocketList is a list of Sprockets.
type SprocketList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Sprocket `json:"items"`
}
