// Package v1 is version v1 of shelf.example.com, the storage version and
// hub: empty, non-nil values and raw JSON through conversions and the
// stash (issue 58, items 7 and 9). Its parts have D, a list v1alpha1's
// lack, which a client may write as []; its items have Note, which
// v1alpha1's lack, beside a JSON value a client may spell with escapes.
// +kubebuilder:object:generate=true
// +groupName=shelf.example.com
package v1

import (
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// BookSpec is what a book holds.
type BookSpec struct {
	Title string `json:"title"`
	// +optional
	Parts map[string]*Part `json:"parts,omitempty"`
	// +optional
	Items []Item `json:"items,omitempty"`
}

// Part is one part of a book.
type Part struct {
	N string `json:"n"`
	// +optional
	// +nullable
	D []string `json:"d"`
}

// Item is a value of the book's, with a note.
type Item struct {
	// +optional
	V *apiextensionsv1.JSON `json:"v,omitempty"`
	// +optional
	Note string `json:"note,omitempty"`
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
