// Package v1beta1 is the older version of infra.example.com.
// +kubebuilder:object:generate=true
// +groupName=infra.example.com
package v1beta1

import (
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// +kubebuilder:object:root=true
// +k8s:conversion-gen=false

// Widget is a widget. The opt-out above is not its comment to
// conversion-gen (a blank line separates them): Convert_ functions for it
// are generated, and the hand-written ConvertTo calls them.
type Widget struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              WidgetSpec `json:"spec,omitempty"`
}

// WidgetSpec is the desired state of a Widget.
type WidgetSpec struct {
	Ref     *corev1.ObjectReference `json:"ref,omitempty"`
	Version *string                 `json:"version,omitempty"`
	Size    int32                   `json:"size,omitempty"`
}

// +kubebuilder:object:root=true

// WidgetList is a list of Widgets.
type WidgetList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Widget `json:"items"`
}
