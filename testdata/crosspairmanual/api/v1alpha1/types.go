// Package v1alpha1 is the first version of probes.example.com. Its Limit
// was written as text ("10"), which only a hand-written function converts
// to v1's: crdforge generates no Convert_ of Limit for Probe, so Beacon's
// field of that type cannot call one either, and stays a field to convert
// by hand.
// +kubebuilder:object:generate=true
// +groupName=probes.example.com
package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Limit caps how often something fires, per minute, as text.
type Limit struct {
	Max string `json:"max"`
}

// +kubebuilder:object:root=true

// Probe checks an endpoint.
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

// +kubebuilder:object:root=true

// Beacon signals on a channel.
type Beacon struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              BeaconSpec `json:"spec,omitempty"`
}

// BeaconSpec is the desired state of a Beacon.
type BeaconSpec struct {
	Channel string `json:"channel"`
	Limit   Limit  `json:"limit"`
}

// +kubebuilder:object:root=true

// BeaconList is a list of Beacons.
type BeaconList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Beacon `json:"items"`
}
