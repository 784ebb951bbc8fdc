package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// ShelfSpec is the desired state of a Shelf: every shape of unnamed struct
// a field can hold.
type ShelfSpec struct {
	// Slots is a set of slot names: the empty struct takes no room.
	Slots map[string]struct{} `json:"slots"`
	// Labels are pairs, each an unnamed struct of strings: a copy() copies
	// them.
	// +optional
	Labels []struct {
		Key   string `json:"key"`
		Value string `json:"value"`
	} `json:"labels,omitempty"`
	// Boxes hold references, so each is copied field by field.
	// +optional
	Boxes []struct {
		Name  string   `json:"name"`
		Tags  []string `json:"tags,omitempty"`
		Owner *string  `json:"owner,omitempty"`
	} `json:"boxes,omitempty"`
	// Location is an unnamed struct field that holds a slice.
	Location struct {
		Room   string  `json:"room"`
		Aisles []int32 `json:"aisles,omitempty"`
	} `json:"location"`
	// Size is an unnamed struct field that holds no reference: assigned.
	Size struct {
		Width, Height int32
	} `json:"size"`
	// Counts are unnamed structs in a map, each with a pointer.
	// +optional
	Counts map[string]struct {
		Count *int32 `json:"count,omitempty"`
	} `json:"counts,omitempty"`
	// Grid is an array of unnamed structs that hold slices.
	Grid [2]struct {
		Cells []string `json:"cells,omitempty"`
	} `json:"grid"`
	// Pinned points at an unnamed struct with a map.
	// +optional
	Pinned *struct {
		Note string            `json:"note"`
		Refs map[string]string `json:"refs,omitempty"`
	} `json:"pinned,omitempty"`
	// Events name another package's type, with its own DeepCopyInto, and a
	// type of this package.
	// +optional
	Events []struct {
		At    metav1.Time `json:"at"`
		Parts PartList    `json:"parts,omitempty"`
	} `json:"events,omitempty"`
	// Free is a named map of unnamed structs, with deepcopy methods of its
	// own (crdforge's too).
	// +optional
	Free SlotSet `json:"free,omitempty"`
}

// SlotSet is a named set: value receivers.
type SlotSet map[string]struct{}

// PartList is a named slice whose copy controller-tools writes.
type PartList []Part

// Part is a plain struct with a map.
type Part struct {
	Name  string            `json:"name"`
	Attrs map[string]string `json:"attrs,omitempty"`
}

// ShelfStatus has a hand-written DeepCopyInto (in deepcopy.go), so its
// unnamed struct is the author's to copy, not controller-tools' nor
// crdforge's.
type ShelfStatus struct {
	// Seen is a set of observers.
	// +optional
	Seen map[string]struct{} `json:"seen,omitempty"`
}

// +kubebuilder:object:root=true

// Shelf is a test kind whose spec holds unnamed struct types; it holds one
// itself, so its DeepCopyObject is crdforge's too.
type Shelf struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// The schemas stop here, as in Longhorn's older version: controller-
	// tools' schema parser would refuse the unnamed structs.
	// +kubebuilder:validation:Schemaless
	// +kubebuilder:pruning:PreserveUnknownFields
	Spec ShelfSpec `json:"spec,omitempty"`
	// +kubebuilder:validation:Schemaless
	// +kubebuilder:pruning:PreserveUnknownFields
	Status ShelfStatus `json:"status,omitempty"`
	// Marks is a set.
	// +optional
	// +kubebuilder:validation:Schemaless
	// +kubebuilder:pruning:PreserveUnknownFields
	Marks map[string]struct{} `json:"marks,omitempty"`
}

// +kubebuilder:object:root=true

// ShelfList is a list of Shelves, copied by controller-tools.
type ShelfList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Shelf `json:"items"`
}
