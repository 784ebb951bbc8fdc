package v1beta1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// RelaySpec is the desired state of a Relay.
type RelaySpec struct {
	// Host moved into network in v1.
	// +crdforge:hubfield=Network.Host
	Host string `json:"host,omitempty"`
	// Port moved into network in v1.
	// +crdforge:hubfield=Network.Port
	Port int32 `json:"port,omitempty"`
	// Mode is how it relays.
	Mode string `json:"mode,omitempty"`
}

// +kubebuilder:object:root=true

// Relay is a test kind.
type Relay struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec RelaySpec `json:"spec,omitempty"`
}

// +kubebuilder:object:root=true

// RelayList is a list of Relays.
type RelayList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Relay `json:"items"`
}
