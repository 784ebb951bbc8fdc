package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// CacheSpec is a cache's desired state.
type CacheSpec struct {
	// Eviction is on unless a client turns it off. With strategy None the
	// API server keeps a client's false, but a Go client writes none.
	// +kubebuilder:default=true
	Eviction bool `json:"eviction,omitempty"`
	// Shards is a pointer: its 0 is written.
	// +kubebuilder:default=4
	Shards *int32 `json:"shards,omitempty"`
	// Mode's empty value is meant to read as the default.
	// +kubebuilder:default=lru
	// +crdforge:droppedzero
	Mode string `json:"mode,omitempty"`
}

// +kubebuilder:object:root=true
// +kubebuilder:storageversion
// +crdforge:conversion:strategy=None

// Cache is a cache.
type Cache struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec CacheSpec `json:"spec,omitempty"`
}

// +kubebuilder:object:root=true

// CacheList is a list of Caches.
type CacheList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Cache `json:"items"`
}
