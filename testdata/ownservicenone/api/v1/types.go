// Package v1 is the hub and storage version of infra.example.com.
// +kubebuilder:object:generate=true
// +groupName=infra.example.com
package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// +kubebuilder:object:root=true
// +kubebuilder:storageversion

// Machine is a machine.
type Machine struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              MachineSpec `json:"spec,omitempty"`
}

// MachineSpec is the desired state of a Machine.
type MachineSpec struct {
	Image string `json:"image,omitempty"`
	// Zone is new in v1.
	Zone string `json:"zone,omitempty"`
}

// +kubebuilder:object:root=true

// MachineList is a list of Machines.
type MachineList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Machine `json:"items"`
}
