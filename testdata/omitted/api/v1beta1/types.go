package v1beta1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// GateSpec is the desired state of a Gate.
type GateSpec struct {
	// Ports are where the gate listens.
	Ports []Port `json:"ports,omitempty"`
}

// Port is one port of a gate.
type Port struct {
	// Name names the port.
	Name string `json:"name,omitempty"`
	// Resolved is what the controller resolved Name to, in memory only:
	// it never reaches the API server.
	Resolved string `json:"-"`
	// Probed is when the controller last probed the port, in memory only;
	// v1 has no place for it.
	Probed string `json:"-"`
}

// +kubebuilder:object:root=true

// Gate is a test kind.
type Gate struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec GateSpec `json:"spec,omitempty"`
}

// +kubebuilder:object:root=true

// GateList is a list of Gates.
type GateList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Gate `json:"items"`
}
