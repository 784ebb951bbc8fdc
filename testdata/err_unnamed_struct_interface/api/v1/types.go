package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// CrateSpec holds a set, which crdforge copies, and beside it values no
// deepcopy can copy.
type CrateSpec struct {
	Slots map[string]struct{} `json:"slots"`
	// Items are unnamed structs with an interface inside.
	Items []struct {
		Name  string `json:"name"`
		Value any    `json:"value"`
	} `json:"items,omitempty"`
	// Done is a channel.
	Done chan bool `json:"-"`
}

// +kubebuilder:object:root=true

// Crate is a test kind.
type Crate struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// +kubebuilder:validation:Schemaless
	// +kubebuilder:pruning:PreserveUnknownFields
	Spec CrateSpec `json:"spec,omitempty"`
}
