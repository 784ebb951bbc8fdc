package v2

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// CronSchedule is v2's structured schedule.
type CronSchedule struct {
	Minute *string `json:"minute,omitempty"`
	Hour   *string `json:"hour,omitempty"`
}

// CronJobSpec is the desired state of a CronJob.
type CronJobSpec struct {
	Schedule CronSchedule `json:"schedule"`
	Suspend  *bool        `json:"suspend,omitempty"`
}

// +kubebuilder:object:root=true

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
	Size int64 `json:"size"`
}

// +kubebuilder:object:root=true

// Gadget is converted by code outside this package.
// +k8s:conversion-gen=false
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
