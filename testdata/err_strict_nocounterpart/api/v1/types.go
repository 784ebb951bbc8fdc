package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// BackupSpec says when to back up.
type BackupSpec struct {
	Schedule string `json:"schedule,omitempty"`
}

// DatabaseSpec is a database's desired state.
type DatabaseSpec struct {
	Backup BackupSpec `json:"backup,omitempty"`
	// Replicas is new in v1, and acknowledged: --strict accepts it.
	// +crdforge:nocounterpart
	Replicas int32 `json:"replicas,omitempty"`
}

// +kubebuilder:object:root=true
// +kubebuilder:storageversion

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
