// Package v1 is the storage version of Relay.
// +kubebuilder:object:generate=true
// +groupName=relays.example.com
package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	commonv1 "github.com/crdforge/crdforge/testdata/sharedtypes/api/common/v1"
)

// +kubebuilder:object:root=true
// +kubebuilder:storageversion

// Relay forwards messages.
type Relay struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              RelaySpec `json:"spec,omitempty"`
}

// RelaySpec is the desired state of a Relay.
type RelaySpec struct {
	Target   string            `json:"target"`
	Endpoint commonv1.Endpoint `json:"endpoint"`
}

// +kubebuilder:object:root=true

// RelayList is a list of Relays.
type RelayList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Relay `json:"items"`
}
