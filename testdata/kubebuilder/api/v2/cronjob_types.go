package v2

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// CronJobSpec defines the desired state of CronJob.
type CronJobSpec struct {
	// Schedule is the schedule in Cron format.
	Schedule string `json:"schedule"`
	// Suspend tells the controller to suspend subsequent executions. New in
	// v2.
	// +optional
	// +crdforge:nocounterpart
	Suspend *bool `json:"suspend,omitempty"`
}

// +kubebuilder:object:root=true

// CronJob is the Schema for the cronjobs API.
type CronJob struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec CronJobSpec `json:"spec,omitempty"`
}

// +kubebuilder:object:root=true

// CronJobList contains a list of CronJob.
type CronJobList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []CronJob `json:"items"`
}
