package v2

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// +kubebuilder:object:root=true
// +crdforge:certmanager:injectCA=false
// Doohickey is a test kind.
type Doohickey struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Total int32 `json:"total,omitempty"`
}

// +kubebuilder:object:root=true

// DoohickeyList is a list of Doohickeys.
type DoohickeyList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Doohickey `json:"items"`
}
