package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// +kubebuilder:object:root=true
// +kubebuilder:storageversion
// +crdforge:certmanager:injectCA=false
// Doohickey is a test kind.
type Doohickey struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Count int32 `json:"count,omitempty"`
}

// +kubebuilder:object:root=true

// DoohickeyList is a list of Doohickeys.
type DoohickeyList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Doohickey `json:"items"`
}
