// Package v1beta1 is version v1beta1 of net.example.com: its types are v1's.
// +kubebuilder:object:generate=true
// +groupName=net.example.com
package v1beta1

import (
	v1 "github.com/crdforge/crdforge/testdata/err_hub_cycle/api/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// +kubebuilder:object:root=true
// +crdforge:hub

// Grant is v1's Grant; this package imports v1, so v1 cannot import it.
type Grant struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              GrantSpec `json:"spec,omitempty"`
}

// GrantSpec is v1's.
type GrantSpec = v1.GrantSpec

// +kubebuilder:object:root=true

// GrantList is a list of Grants.
type GrantList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Grant `json:"items"`
}
