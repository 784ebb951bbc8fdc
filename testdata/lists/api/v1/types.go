// Package v1 is the first version of lists.example.com. As in Cluster API
// providers, its list converts to the hub's through a hand-written
// ConvertTo and ConvertFrom that call the list's generated Convert_.
// +kubebuilder:object:generate=true
// +groupName=lists.example.com
package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// +kubebuilder:object:root=true

// Widget is a widget.
type Widget struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec WidgetSpec `json:"spec,omitempty"`
}

// WidgetSpec is what a Widget should be.
type WidgetSpec struct {
	// Replicas is how many copies run.
	Replicas int32 `json:"replicas,omitempty"`
	// Template is what each copy is made from.
	Template WidgetTemplate `json:"template,omitempty"`
}

// WidgetTemplate is a copy's metadata and what it runs.
type WidgetTemplate struct {
	metav1.ObjectMeta `json:"metadata,omitempty"`
	// Image is what it runs.
	Image string `json:"image,omitempty"`
}

// +kubebuilder:object:root=true

// WidgetList is a list of Widgets.
type WidgetList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Widget `json:"items"`
}
