// Package v1 is version v1 of net.example.com.
// +kubebuilder:object:generate=true
// +groupName=net.example.com
package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// +kubebuilder:object:root=true
// +kubebuilder:storageversion

// Grant lets routes of other namespaces refer to this one's backends.
type Grant struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              GrantSpec `json:"spec,omitempty"`
}

// GrantSpec lists who may refer to what.
type GrantSpec struct {
	From []string `json:"from,omitempty"`
}

// +kubebuilder:object:root=true

// GrantList is a list of Grants.
type GrantList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Grant `json:"items"`
}
