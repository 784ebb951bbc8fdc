// Package v1beta1 is version v1beta1 of pools.example.com. v1alpha1 converts its
// reference with v1beta1's hand-written functions, as Cluster API's ipam
// v1alpha1 uses ipam v1beta1's.
// +kubebuilder:object:generate=true
// +groupName=pools.example.com
package v1beta1

import (
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// +kubebuilder:object:root=true

// Pool hands out addresses.
type Pool struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              PoolSpec `json:"spec,omitempty"`
}

// PoolSpec is the desired state of a Pool.
type PoolSpec struct {
	Ref corev1.LocalObjectReference `json:"ref,omitempty"`
}

// +kubebuilder:object:root=true

// PoolList is a list of Pools.
type PoolList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Pool `json:"items"`
}
