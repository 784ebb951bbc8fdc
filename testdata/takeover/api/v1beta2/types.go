// Package v1beta2 is the hub of infra.example.com, in the shape of Cluster
// API's core group: conversions to and from v1beta1 are hand-written in
// v1beta1 against conversion-gen's output, which crdforge takes over.
// +kubebuilder:object:generate=true
// +groupName=infra.example.com
package v1beta2

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// +kubebuilder:object:root=true
// +kubebuilder:storageversion

// Widget is a widget.
type Widget struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              WidgetSpec `json:"spec,omitempty"`
}

// Hub marks the hub, as kubebuilder's multiversion tutorial writes it.
func (*Widget) Hub() {}

// WidgetSpec is the desired state of a Widget.
type WidgetSpec struct {
	// Ref is required here, optional (a pointer to another type) in v1beta1.
	Ref     ObjRef `json:"ref,omitempty"`
	Version string `json:"version,omitempty"`
	Size    int32  `json:"size,omitempty"`
}

// ObjRef names an object of an API group.
type ObjRef struct {
	Kind  string `json:"kind,omitempty"`
	Name  string `json:"name,omitempty"`
	Group string `json:"group,omitempty"`
}

// +kubebuilder:object:root=true

// WidgetList is a list of Widgets.
type WidgetList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Widget `json:"items"`
}
