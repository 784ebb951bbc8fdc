// Package v1beta1 is the older version of tools.example.com.
// +kubebuilder:object:generate=true
// +groupName=tools.example.com
package v1beta1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// +kubebuilder:object:root=true

// Thing is a thing.
type Thing struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              ThingSpec `json:"spec,omitempty"`
}

// ThingSpec is the desired state of a Thing.
type ThingSpec struct {
	Size int32 `json:"size,omitempty"`
}

// +kubebuilder:object:root=true

// ThingList is a list of Things.
type ThingList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Thing `json:"items"`
}
