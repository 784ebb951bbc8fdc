package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// WidgetSpec is the desired state of a Widget.
type WidgetSpec struct {
	// Network is where the widget listens.
	Network Network `json:"network,omitempty"`
	// Primary and Fallback are endpoints; v1alpha1 has the primary's host
	// beside it, and the fallback's nowhere.
	Primary  Endpoint `json:"primary,omitempty"`
	Fallback Endpoint `json:"fallback,omitempty"`
}

// Endpoint is an address, converted in two places.
type Endpoint struct {
	// Host is the host name: v1alpha1 has the primary's only.
	Host string `json:"host,omitempty"`
	// Port is the port.
	Port int32 `json:"port,omitempty"`
}

// Network is an address.
type Network struct {
	// Host is the host name; v1alpha1 has it beside network.
	Host string `json:"host,omitempty"`
	// Port is the port, in network in both versions.
	Port int32 `json:"port,omitempty"`
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
