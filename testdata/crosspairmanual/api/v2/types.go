// Package v2 is the storage version and hub of Beacon; it uses v1's Limit.
// +kubebuilder:object:generate=true
// +groupName=probes.example.com
package v2

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	v1 "github.com/crdforge/crdforge/testdata/crosspairmanual/api/v1"
)

// +kubebuilder:object:root=true
// +kubebuilder:storageversion

// Beacon signals on a channel.
type Beacon struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              BeaconSpec `json:"spec,omitempty"`
}

// BeaconSpec is the desired state of a Beacon.
type BeaconSpec struct {
	Channel string   `json:"channel"`
	Limit   v1.Limit `json:"limit"`
}

// +kubebuilder:object:root=true

// BeaconList is a list of Beacons.
type BeaconList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Beacon `json:"items"`
}
