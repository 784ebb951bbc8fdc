package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Extra are optional settings, inline in the spec.
type Extra struct {
	// Note is a free-form remark.
	Note string `json:"note,omitempty"`
	// Legacy is a setting v1 dropped, inside the embedded struct.
	// +crdforge:nocounterpart
	Legacy string `json:"legacy,omitempty"`
}

// WidgetSpec is the desired state of a Widget.
type WidgetSpec struct {
	// Extra's fields are the spec's, and absent when Extra is nil.
	*Extra `json:",inline"`
	// Size is how big the widget is.
	Size int32 `json:"size,omitempty"`
	// Old is a setting v1 dropped, beside the embedded struct.
	// +crdforge:nocounterpart
	Old int64 `json:"old,omitempty"`
}

// +kubebuilder:object:root=true

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
