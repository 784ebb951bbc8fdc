package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// ShelfSpec is the desired state of a Shelf, with the omit marker on a
// field, on a type and on an embedded field.
type ShelfSpec struct {
	// Common's fields are the spec's, inline; the marker on the embedded
	// field leaves out their descriptions, and no other.
	// +crdforge:description:omit
	Common `json:",inline"`

	// Books are the shelf's books. The marker leaves out this description
	// and every description in the books' schema.
	// +crdforge:description:omit
	Books []Book `json:"books,omitempty"`

	// Featured is the book on show. Book is not marked: its descriptions
	// stay here.
	// +optional
	Featured *Book `json:"featured,omitempty"`

	// Label is the shelf's own label: the field's description stays, and
	// Label's fields' go.
	Label Label `json:"label"`

	// +optional
	Spare *Label `json:"spare,omitempty"`

	// +optional
	Tags []Label `json:"tags,omitempty"`
}

// Common holds what every shelf has.
type Common struct {
	// Width is the shelf's width in centimetres.
	Width int32 `json:"width"`
}

// Book is a book on the shelf.
type Book struct {
	// Title is the book's title.
	Title string `json:"title"`
	// Pages is how many pages the book has.
	// +optional
	Pages int32 `json:"pages,omitempty"`
}

// Label is a label: its own description goes wherever a field without one
// of its own takes it (spare, tags), and so do its fields'.
// +crdforge:description:omit
type Label struct {
	// Text is the label's text.
	Text string `json:"text"`
	// Color is the label's colour.
	// +optional
	Color string `json:"color,omitempty"`
}

// +kubebuilder:object:root=true

// Shelf is a kind whose descriptions are left out where markers say.
type Shelf struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec ShelfSpec `json:"spec,omitempty"`
}

// +kubebuilder:object:root=true

// ShelfList is a list of Shelves.
type ShelfList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Shelf `json:"items"`
}
