// Package v1alpha1 is version v1alpha1 of shelf.example.com. Its books have
// tags and a list of aliases, which v1 lacks, both written by JSON when
// empty ({} and []); its parts lack v1's D, its items v1's Note.
// +kubebuilder:object:generate=true
// +groupName=shelf.example.com
package v1alpha1

import (
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// BookSpec is what a book holds.
type BookSpec struct {
	Title string `json:"title"`
	// +optional
	Tags map[string]string `json:"tags,omitzero"`
	// +optional
	// +nullable
	Aliases []string `json:"aliases"`
	// +optional
	Parts map[string]*Part `json:"parts,omitempty"`
	// +optional
	Items []Item `json:"items,omitempty"`
}

// Part is one part of a book.
type Part struct {
	N string `json:"n"`
}

// Item is a value of the book's.
type Item struct {
	// +optional
	V *apiextensionsv1.JSON `json:"v,omitempty"`
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
