// Package v1alpha1 is version v1alpha1 of shelf.example.com: v1's fields,
// each omitempty, which leaves out an empty list, map or []byte that v1
// writes, and writes a zero Limits that v1 leaves out.
// +kubebuilder:object:generate=true
// +groupName=shelf.example.com
package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// BookSpec is what a book holds.
type BookSpec struct {
	Title string `json:"title"`
	// +optional
	Tags []string `json:"tags,omitempty"`
	// +optional
	Labels map[string]string `json:"labels,omitempty"`
	// +optional
	Cover []byte `json:"cover,omitempty"`
	// +optional
	Chapters []Chapter `json:"chapters,omitempty"`
	// +optional
	Shelf *Shelf `json:"shelf,omitempty"`
	// +optional
	Limits Limits `json:"limits,omitempty"`
	// +optional
	Published metav1.Time `json:"published"`
	// +optional
	Read *metav1.MicroTime `json:"read,omitempty"`
}

// Chapter is a chapter of a book.
type Chapter struct {
	Title string `json:"title"`
	// +optional
	Notes []string `json:"notes,omitempty"`
}

// Shelf is where a book stands.
type Shelf struct {
	// +optional
	Rows map[string]int32 `json:"rows,omitempty"`
}

// Limits bound a book.
type Limits struct {
	// +optional
	Pages int32 `json:"pages,omitempty"`
}

// +kubebuilder:object:root=true

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
