package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// +kubebuilder:object:root=true
// Orphan is a kind whose package has an empty +groupName=.
type Orphan struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// Owner names who owns it.
	Owner string `json:"owner,omitempty"`
}

// +kubebuilder:object:root=true

// OrphanList is a list of Orphans.
type OrphanList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Orphan `json:"items"`
}
