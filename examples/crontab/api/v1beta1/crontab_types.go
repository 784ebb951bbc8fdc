package v1beta1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// CronTabSpec is what a CronTab runs, and when.
type CronTabSpec struct {
	// CronSpec is the schedule, in cron format.
	// +kubebuilder:validation:Pattern=`^(\d+|\*)(/\d+)?(\s+(\d+|\*)(/\d+)?){4}$`
	// +optional
	CronSpec string `json:"cronSpec,omitempty"`

	// Image is the container image to run.
	// +optional
	Image string `json:"image,omitempty"`

	// Replicas is how many copies to run.
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=10
	// +kubebuilder:default=1
	// +optional
	Replicas int64 `json:"replicas,omitempty"`
}

// +kubebuilder:object:root=true
// +kubebuilder:resource:shortName=ct

// CronTab runs an image on a schedule. In v1beta1 its address is one
// host:port string.
type CronTab struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// HostPort is the address to report to, as host:port.
	// +optional
	HostPort string `json:"hostPort,omitempty"`

	// +optional
	Spec CronTabSpec `json:"spec,omitzero"`
}

// +kubebuilder:object:root=true

// CronTabList is a list of CronTabs.
type CronTabList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []CronTab `json:"items"`
}
