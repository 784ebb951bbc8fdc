package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// DatabaseSpec is a newcomer's first version of a database: flat fields.
type DatabaseSpec struct {
	// SizeGB is the volume size in gigabytes. v1 moved it to storage.size,
	// an int32 with a minimum.
	// +crdforge:hubfield=Storage.Size
	SizeGB int64 `json:"sizeGB"`
	// BackupSchedule is a cron schedule. v1 moved it to backup.schedule, and
	// no marker says so: crdforge warns and suggests the marker.
	BackupSchedule string `json:"backupSchedule,omitempty"`
	// Engine is any string here; v1 allows only Postgres and MySQL.
	Engine string `json:"engine"`
	// Comment lives in v1alpha1 only, on purpose.
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
