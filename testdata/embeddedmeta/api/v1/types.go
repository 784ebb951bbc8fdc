package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// PodSetSpec is the desired state of a PodSet.
type PodSetSpec struct {
	// Template is what each member is made from.
	Template MemberTemplate `json:"template"`
}

// MemberTemplate embeds an ObjectMeta below the top level: with
// --generate-embedded-object-meta its metadata gets name, namespace,
// labels, annotations and finalizers in the schema, rather than being an
// object the API server prunes to nothing.
type MemberTemplate struct {
	// Standard object's metadata.
	// +optional
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// Image is what each member runs.
	Image string `json:"image"`
}

// +kubebuilder:object:root=true
// PodSet is a test kind with an embedded ObjectMeta.
type PodSet struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec PodSetSpec `json:"spec,omitempty"`
}

// +kubebuilder:object:root=true

// PodSetList is a list of PodSets.
type PodSetList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []PodSet `json:"items"`
}
