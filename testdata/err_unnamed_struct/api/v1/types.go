package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// ShelfSpec is the desired state of a Shelf.
type ShelfSpec struct {
	// Slots is a set of slot names: the empty struct takes no room.
	Slots map[string]struct{} `json:"slots"`
	// Labels are pairs, each an unnamed struct.
	// +optional
	Labels []struct {
		Key   string `json:"key"`
		Value string `json:"value"`
	} `json:"labels,omitempty"`
	// Size is a named type's field, which is fine.
	Size int32 `json:"size"`
}

// ShelfStatus has a hand-written DeepCopyInto (in deepcopy.go), so its
// unnamed struct is the author's to copy, not controller-tools'.
type ShelfStatus struct {
	// Seen is a set of observers.
	// +optional
	Seen map[string]struct{} `json:"seen,omitempty"`
}

// +kubebuilder:object:root=true

// Shelf is a test kind whose spec holds unnamed struct types.
type Shelf struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// The schemas stop here, as in Longhorn's older version: controller-
	// tools' schema parser would refuse the unnamed structs too.
	// +kubebuilder:validation:Schemaless
	// +kubebuilder:pruning:PreserveUnknownFields
	Spec ShelfSpec `json:"spec,omitempty"`
	// +kubebuilder:validation:Schemaless
	// +kubebuilder:pruning:PreserveUnknownFields
	Status ShelfStatus `json:"status,omitempty"`
}

// +kubebuilder:object:root=true

// ShelfList is a list of Shelves.
type ShelfList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Shelf `json:"items"`
}
