package v1beta1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// +kubebuilder:object:root=true
// +crdforge:hub
// +crdforge:conversion:strategy=Webhook
// Cog is a test kind.
type Cog struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Teeth int32 `json:"teeth,omitempty"`
}

// +kubebuilder:object:root=true

// CogList is a list of Cogs.
type CogList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Cog `json:"items"`
}
