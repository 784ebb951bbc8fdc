// Package v1 is version v1 of monitors.example.com, the storage version.
// +kubebuilder:object:generate=true
// +groupName=monitors.example.com
package v1

import (
	"github.com/crdforge/crdforge/testdata/partialtypes/shapes/common"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// +kubebuilder:object:root=true
// +kubebuilder:storageversion

// Monitor watches a service.
type Monitor struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              MonitorSpec `json:"spec,omitempty"`
}

// MonitorSpec is the desired state of a Monitor.
type MonitorSpec struct {
	// Probe is how the service is checked.
	Probe common.Probe `json:"probe"`
	// Interval is how often, in seconds.
	Interval string `json:"interval"`
}

// +kubebuilder:object:root=true

// MonitorList is a list of Monitors.
type MonitorList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Monitor `json:"items"`
}
