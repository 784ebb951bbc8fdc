package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// WidgetSpec is the desired state of a Widget.
type WidgetSpec struct {
	// Host moved into network in v1, beside the port that was there
	// already.
	// +crdforge:hubfield=Network.Host
	Host string `json:"host,omitempty"`
	// Network is where the widget listens.
	Network Network `json:"network,omitempty"`
	// PrimaryHost moved into primary in v1.
	// +crdforge:hubfield=Primary.Host
	PrimaryHost string `json:"primaryHost,omitempty"`
	// Primary and Fallback are endpoints without their hosts.
	Primary  Endpoint `json:"primary,omitempty"`
	Fallback Endpoint `json:"fallback,omitempty"`
}

// Endpoint is an address without its host.
type Endpoint struct {
	// Port is the port.
	Port int32 `json:"port,omitempty"`
}

// Network is an address without its host.
type Network struct {
	// Port is the port.
	Port int32 `json:"port,omitempty"`
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
