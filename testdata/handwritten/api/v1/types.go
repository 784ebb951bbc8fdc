package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// CronJobSpec is the desired state of a CronJob.
type CronJobSpec struct {
	Schedule string `json:"schedule"`
	Suspend  *bool  `json:"suspend,omitempty"`
}

// +kubebuilder:object:root=true
// +kubebuilder:storageversion

// CronJob runs jobs on a schedule.
type CronJob struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              CronJobSpec `json:"spec,omitempty"`
}

// +kubebuilder:object:root=true

// CronJobList is a list of CronJobs.
type CronJobList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []CronJob `json:"items"`
}

// GadgetSpec is the desired state of a Gadget.
type GadgetSpec struct {
	Size int32 `json:"size"`
}

// +kubebuilder:object:root=true
// +kubebuilder:storageversion

// Gadget converts outside this package in v2.
type Gadget struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              GadgetSpec `json:"spec,omitempty"`
}

// +kubebuilder:object:root=true

// GadgetList is a list of Gadgets.
type GadgetList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Gadget `json:"items"`
}
