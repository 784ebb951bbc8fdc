package v1

import (
	apiv1 "github.com/crdforge/crdforge/testdata/descriptionomit/api/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// CrateSpec is the desired state of a Crate.
type CrateSpec struct {
	// Size is the crate's size in litres.
	Size int32 `json:"size"`
	// Book is a book packed in the crate: a type of another package, within
	// a schema the marker covers.
	// +optional
	Book *apiv1.Book `json:"book,omitempty"`
}

// +kubebuilder:object:root=true

// Crate is a kind of a package whose descriptions are all left out.
type Crate struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec CrateSpec `json:"spec,omitempty"`
}

// +kubebuilder:object:root=true

// CrateList is a list of Crates.
type CrateList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Crate `json:"items"`
}
