package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// GateSpec is the desired state of a Gate.
type GateSpec struct {
	// Ports are where the gate listens.
	Ports []Port `json:"ports,omitempty"`
}

// Port is one port of a gate. Beside a field JSON omits, it has one v1beta1
// lacks, which converting there and back must keep.
type Port struct {
	// Name names the port.
	Name string `json:"name,omitempty"`
	// Resolved is what the controller resolved Name to, in memory only:
	// it never reaches the API server.
	Resolved string `json:"-"`
	// Protocol is new in v1: v1beta1 has no place for it.
	Protocol string `json:"protocol,omitempty"`
}

// +kubebuilder:object:root=true
// +kubebuilder:storageversion

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
