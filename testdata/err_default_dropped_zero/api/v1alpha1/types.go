package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// DatabaseSpec is a database's desired state. A client writes
// backups: false and replicas: 0 here; converted to v1 they would be
// stored as true and 3.
type DatabaseSpec struct {
	// +kubebuilder:default=true
	Backups bool `json:"backups,omitempty"`
	// +kubebuilder:default=3
	Replicas int32 `json:"replicas,omitempty"`
	// Size keeps its zero: its marker accepts nothing.
	// +crdforge:droppedzero
	// +crdforge:nocounterpart
	Size int32 `json:"size,omitempty"`
	// Level's minimum refuses 0: its marker accepts nothing either.
	// +kubebuilder:default=1
	// +kubebuilder:validation:Minimum=1
	// +crdforge:droppedzero
	// +crdforge:nocounterpart
	Level int32 `json:"level,omitempty"`
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
