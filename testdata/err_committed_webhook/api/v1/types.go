package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// WidgetSpec is the desired state of a Widget.
type WidgetSpec struct {
	// Size is how big the widget is.
	Size int32 `json:"size"`
	// Color is what color it is.
	// +optional
	Color string `json:"color,omitempty"`
	// Tags tag the widget. Every version holds them alike, but a
	// hand-written Convert_ function converts WidgetSpec, and may read
	// them: the webhook decodes them, and passes nothing of the spec.
	// +optional
	Tags map[string]string `json:"tags,omitempty"`
}

// +kubebuilder:object:root=true
// +kubebuilder:storageversion
// Widget is a test kind.
type Widget struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec WidgetSpec `json:"spec,omitempty"`
}

// +kubebuilder:object:root=true

// WidgetList is a list of Widgets.
type WidgetList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Widget `json:"items"`
}
