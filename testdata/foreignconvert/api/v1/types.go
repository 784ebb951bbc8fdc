// Package v1 is the storage version of knative.example.com. As Karpenter's
// v1 does, it converts to the older version itself, with knative-style
// methods, and so imports that version's package.
// +kubebuilder:object:generate=true
// +groupName=knative.example.com
package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// +kubebuilder:object:root=true
// +kubebuilder:storageversion

// Pool is a pool of nodes.
type Pool struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec PoolSpec `json:"spec,omitempty"`
}

// PoolSpec is what a Pool should be.
type PoolSpec struct {
	Size int32 `json:"size,omitempty"`
}

// +kubebuilder:object:root=true

// PoolList is a list of Pools.
type PoolList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Pool `json:"items"`
}
