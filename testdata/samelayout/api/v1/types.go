package v1

import (
	"github.com/crdforge/crdforge/testdata/samelayout/api/common"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// BeaconSpec is the desired state of a Beacon.
type BeaconSpec struct {
	Template common.ObjectMeta `json:"template,omitempty"`
	Period   int32             `json:"period,omitempty"`
}

// BeaconStatus is the observed state of a Beacon.
type BeaconStatus struct {
	Conditions common.Conditions `json:"conditions,omitempty"`
	Sites      common.Sites      `json:"sites,omitempty"`
}

// Extras is reached by no kind; its v1alpha1 namesake holds look-alikes of
// common's structs that are not same-layout copies.
type Extras struct {
	Badge common.Badge `json:"badge"`
	Stamp common.Stamp `json:"stamp"`
}

// +kubebuilder:object:root=true
// +kubebuilder:storageversion
// +kubebuilder:subresource:status

// Beacon is a test kind.
type Beacon struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              BeaconSpec   `json:"spec,omitempty"`
	Status            BeaconStatus `json:"status,omitempty"`
}

// +kubebuilder:object:root=true

// BeaconList is a list of Beacons.
type BeaconList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Beacon `json:"items"`
}
