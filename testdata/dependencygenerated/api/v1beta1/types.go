// Package v1beta1 is the older version of crates.example.com.
// +kubebuilder:object:generate=true
// +groupName=crates.example.com
package v1beta1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// +kubebuilder:object:root=true

// Crate holds bottles.
type Crate struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec CrateSpec `json:"spec,omitempty"`
}

// CrateSpec is what a Crate should be.
type CrateSpec struct {
	// Compartments of the crate.
	Compartments int32 `json:"compartments,omitempty"`
}

// +kubebuilder:object:root=true

// CrateList is a list of Crates.
type CrateList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Crate `json:"items"`
}
