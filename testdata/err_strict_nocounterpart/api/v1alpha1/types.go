package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// DatabaseSpec is a database's desired state.
type DatabaseSpec struct {
	// BackupSchedule is what v1 calls backup.schedule; no marker says so.
	BackupSchedule string `json:"backupSchedule,omitempty"`
	// Comment lives here only, and says so: --strict accepts it.
	// +crdforge:nocounterpart
	Comment string `json:"comment,omitempty"`
}

// +kubebuilder:object:root=true

// Database is a database.
type Database struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec DatabaseSpec `json:"spec,omitempty"`
}

// +kubebuilder:object:root=true

// DatabaseList is a list of Databases.
type DatabaseList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Database `json:"items"`
}
