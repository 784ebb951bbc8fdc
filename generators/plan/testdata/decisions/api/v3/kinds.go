package v3

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// +kubebuilder:object:root=true

// Beta is the kind of the BetaSpec cases.
type Beta struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              BetaSpec `json:"spec,omitempty"`
}

// +kubebuilder:object:root=true

// BetaList is a list of Betas.
type BetaList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Beta `json:"items"`
}
