// Package v1 is the served and stored version of shelves.example.com.
// +kubebuilder:object:generate=true
// +groupName=shelves.example.com
package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// +kubebuilder:object:root=true
// +kubebuilder:storageversion

// Shelf holds books.
type Shelf struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec ShelfSpec `json:"spec,omitempty"`
}

// ShelfSpec is what a Shelf should be.
type ShelfSpec struct {
	// Slots on the shelf.
	Slots int32 `json:"slots,omitempty"`
	// Label printed on the shelf.
	Label string `json:"label,omitempty"`
}

// +kubebuilder:object:root=true

// ShelfList is a list of Shelves.
type ShelfList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Shelf `json:"items"`
}
