// Package v1 is the storage version of tools.example.com. Its author wrote
// the conversions of ThingSpec here, beside the storage version, so this
// package imports v1beta1: v1beta1 cannot import it back, and so v1beta1 is
// the hub of conversions and these functions are the spoke's.
// +kubebuilder:object:generate=true
// +groupName=tools.example.com
package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// +kubebuilder:object:root=true
// +kubebuilder:storageversion

// Thing is a thing.
type Thing struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              ThingSpec `json:"spec,omitempty"`
}

// ThingSpec is the desired state of a Thing.
type ThingSpec struct {
	Size int64 `json:"size,omitempty"`
}

// +kubebuilder:object:root=true

// ThingList is a list of Things.
type ThingList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Thing `json:"items"`
}
