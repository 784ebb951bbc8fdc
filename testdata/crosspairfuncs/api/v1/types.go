// Package v1 is version v1 of signals.example.com: the storage version and
// hub of Hook, and the home of TargetRef, which the newer versions of Alarm
// use as it is.
// +kubebuilder:object:generate=true
// +groupName=signals.example.com
package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// TargetRef points at an object a signal is about, in any namespace.
type TargetRef struct {
	// APIVersion of the object; v1alpha1 has no room for it.
	// +optional
	APIVersion string `json:"apiVersion,omitempty"`
	Kind       string `json:"kind"`
	Name       string `json:"name"`
	// +optional
	Namespace string `json:"namespace,omitempty"`
}

// +kubebuilder:object:root=true
// +kubebuilder:storageversion

// Hook calls a URL when its target changes.
type Hook struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              HookSpec `json:"spec,omitempty"`
}

// HookSpec is the desired state of a Hook.
type HookSpec struct {
	URL     string      `json:"url"`
	Targets []TargetRef `json:"targets,omitempty"`
}

// +kubebuilder:object:root=true

// HookList is a list of Hooks.
type HookList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Hook `json:"items"`
}
