package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Volume is a volume a database mounts.
type Volume struct {
	Name string `json:"name"`
	// ReadOnly drops false inside list elements too.
	// +kubebuilder:default=true
	ReadOnly bool `json:"readOnly,omitempty"`
}

// DatabaseSpec is a database's desired state.
type DatabaseSpec struct {
	// Backups is on unless a client turns it off: omitempty drops that.
	// +kubebuilder:default=true
	Backups bool `json:"backups,omitempty"`
	// Replicas is 3 unless a client says 0: omitempty drops that.
	// +kubebuilder:default=3
	Replicas int32 `json:"replicas,omitempty"`
	// Engine is postgres unless a client clears it: omitempty drops "".
	// +kubebuilder:default=postgres
	// +crdforge:nocounterpart
	Engine string `json:"engine,omitempty"`
	// Labels has a default a client's empty map loses to.
	// +kubebuilder:default={tier: gold}
	// +crdforge:nocounterpart
	Labels map[string]string `json:"labels,omitempty"`
	// Volumes are the database's volumes.
	// +crdforge:nocounterpart
	Volumes []Volume `json:"volumes,omitempty"`

	// Shards is a pointer: its 0 is written.
	// +kubebuilder:default=2
	// +crdforge:nocounterpart
	Shards *int32 `json:"shards,omitempty"`
	// Paused has no omitempty: its false is written.
	// +kubebuilder:default=true
	// +crdforge:nocounterpart
	Paused bool `json:"paused"`
	// Priority defaults to its zero: nothing changes.
	// +kubebuilder:default=0
	// +crdforge:nocounterpart
	Priority int32 `json:"priority,omitempty"`
	// Tier's enum refuses "": no client writes it, so nothing is lost.
	// +kubebuilder:default=silver
	// +kubebuilder:validation:Enum=silver;gold
	// +crdforge:nocounterpart
	Tier string `json:"tier,omitempty"`
	// Mode's enum admits "": a client writes it, and loses it.
	// +kubebuilder:default=sync
	// +kubebuilder:validation:Enum="";sync;async
	// +crdforge:nocounterpart
	Mode string `json:"mode,omitempty"`
	// Port's minimum refuses 0.
	// +kubebuilder:default=5432
	// +kubebuilder:validation:Minimum=1
	// +crdforge:nocounterpart
	Port int32 `json:"port,omitempty"`
	// Zone's pattern refuses "".
	// +kubebuilder:default=a
	// +kubebuilder:validation:Pattern=`^[a-z]+$`
	// +crdforge:nocounterpart
	Zone string `json:"zone,omitempty"`
	// Owner's minimum length refuses "".
	// +kubebuilder:default=dba
	// +kubebuilder:validation:MinLength=1
	// +crdforge:nocounterpart
	Owner string `json:"owner,omitempty"`
	// Hosts' minimum count refuses [].
	// +kubebuilder:default={db0}
	// +kubebuilder:validation:MinItems=1
	// +crdforge:nocounterpart
	Hosts []string `json:"hosts,omitempty"`
}

// DatabaseStatus is written through the status subresource, by Go
// controllers and other clients alike: a dropped zero there is lost too.
type DatabaseStatus struct {
	// Phase is Pending until a client says "".
	// +kubebuilder:default=Pending
	Phase string `json:"phase,omitempty"`
}

// +kubebuilder:object:root=true
// +kubebuilder:storageversion
// +kubebuilder:subresource:status

// Database is a database.
type Database struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec DatabaseSpec `json:"spec,omitempty"`
	// +crdforge:nocounterpart
	Status DatabaseStatus `json:"status,omitempty"`
}

// +kubebuilder:object:root=true

// DatabaseList is a list of Databases.
type DatabaseList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Database `json:"items"`
}
