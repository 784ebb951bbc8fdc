// Package v1 is the only version of lamps.example.com.
// +kubebuilder:object:generate=true
// +groupName=lamps.example.com
package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// +kubebuilder:object:root=true

// Lamp lights a room.
type Lamp struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec LampSpec `json:"spec,omitempty"`
}

// LampSpec is what a Lamp should be.
type LampSpec struct {
	// Watts the bulb draws.
	Watts int32 `json:"watts,omitempty"`
}

// +kubebuilder:object:root=true

// LampList is a list of Lamps.
type LampList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Lamp `json:"items"`
}
