package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// NoteSpec is the desired state of a Note. With --max-desc-len=0, as
// kubebuilder's Makefile passes crd:maxDescLen=0, no description reaches the
// CRD.
type NoteSpec struct {
	// Text is the note's text. It is long enough to be truncated by any
	// positive limit, too.
	Text string `json:"text"`
	// Tags label the note.
	// +optional
	Tags []string `json:"tags,omitempty"`
}

// +kubebuilder:object:root=true
// Note is a test kind whose descriptions are dropped.
type Note struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec NoteSpec `json:"spec,omitempty"`
}

// +kubebuilder:object:root=true

// NoteList is a list of Notes.
type NoteList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Note `json:"items"`
}
