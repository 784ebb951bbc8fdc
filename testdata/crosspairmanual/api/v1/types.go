// Package v1 is the storage version and hub of Probe, and the home of
// Limit, which Beacon's v2 uses as it is.
// +kubebuilder:object:generate=true
// +groupName=probes.example.com
package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Limit caps how often something fires, per minute.
type Limit struct {
	Max int32 `json:"max"`
}

// +kubebuilder:object:root=true
// +kubebuilder:storageversion

// Probe checks an endpoint, at most Limit times a minute.
type Probe struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              ProbeSpec `json:"spec,omitempty"`
}

// ProbeSpec is the desired state of a Probe.
type ProbeSpec struct {
	Endpoint string `json:"endpoint"`
	Limit    Limit  `json:"limit"`
}

// +kubebuilder:object:root=true

// ProbeList is a list of Probes.
type ProbeList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Probe `json:"items"`
}
