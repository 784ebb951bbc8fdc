package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Engine is a database engine.
// +kubebuilder:validation:Enum=Postgres;MySQL
type Engine string

// StorageSpec is where the data lives.
type StorageSpec struct {
	// Size is the volume size in gigabytes.
	// +kubebuilder:validation:Minimum=1
	Size int32 `json:"size"`
}

// BackupSpec says when to back up.
type BackupSpec struct {
	// Schedule is a cron schedule.
	Schedule string `json:"schedule,omitempty"`
}

// DatabaseSpec is the desired state of a Database.
type DatabaseSpec struct {
	Storage StorageSpec `json:"storage"`
	Backup  BackupSpec  `json:"backup,omitempty"`
	Engine  Engine      `json:"engine"`
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
