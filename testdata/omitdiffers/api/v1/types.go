// Package v1 is version v1 of shelf.example.com, the storage version and
// hub. Its fields are v1alpha1's, with other JSON options (issue 58, item
// 5): its lists, maps and bytes are omitzero or have no option, where
// v1alpha1's omitempty leaves an empty one out, so a client's [], {} or ""
// is lost in v1alpha1's JSON unless stashed; its Limits is
// omitzero, which leaves out a zero struct that v1alpha1 writes. Its times
// are omitzero too, which loses nothing: v1alpha1 writes a zero time as
// null, which the API server prunes, so generate warns of Limits alone.
// +kubebuilder:object:generate=true
// +groupName=shelf.example.com
package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// BookSpec is what a book holds.
type BookSpec struct {
	Title string `json:"title"`
	// +optional
	Tags []string `json:"tags,omitzero"`
	// +optional
	Labels map[string]string `json:"labels,omitzero"`
	// +optional
	Cover []byte `json:"cover,omitzero"`
	// +optional
	// +nullable
	Chapters []Chapter `json:"chapters"`
	// +optional
	Shelf *Shelf `json:"shelf,omitempty"`
	// +optional
	Limits Limits `json:"limits,omitzero"`
	// +optional
	Published metav1.Time `json:"published,omitzero"`
	// +optional
	Read *metav1.MicroTime `json:"read,omitzero"`
}

// Chapter is a chapter of a book.
type Chapter struct {
	Title string `json:"title"`
	// +optional
	Notes []string `json:"notes,omitzero"`
}

// Shelf is where a book stands.
type Shelf struct {
	// +optional
	Rows map[string]int32 `json:"rows,omitzero"`
}

// Limits bound a book.
type Limits struct {
	// +optional
	Pages int32 `json:"pages,omitempty"`
}

// +kubebuilder:object:root=true
// +kubebuilder:storageversion

// Book is a book.
type Book struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              BookSpec `json:"spec,omitempty"`
}

// +kubebuilder:object:root=true

// BookList is a list of books.
type BookList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Book `json:"items"`
}
