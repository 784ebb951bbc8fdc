package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Endpoint is where a gizmo listens.
type Endpoint struct {
	// Host is the host name.
	// +optional
	Host string `json:"host,omitempty"`
	// Port is the port.
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=65535
	// +optional
	Port int32 `json:"port,omitempty"`
}

// GizmoSpec is the desired state of a Gizmo.
type GizmoSpec struct {
	// DisplayName is what people call the gizmo; v1alpha1 called it title.
	DisplayName string `json:"displayName"`
	// Endpoint groups the address fields that v1alpha1 kept at the top.
	// +optional
	Endpoint Endpoint `json:"endpoint,omitempty"`
	// Replicas is how many copies run: older versions took any number.
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=1000
	Replicas int32 `json:"replicas"`
	// Schedule is a cron expression; v1beta1 wrapped it in a struct.
	// +optional
	Schedule string `json:"schedule,omitempty"`
	// Color is new in v1.
	// +kubebuilder:default=blue
	// +kubebuilder:validation:Enum=blue;green;red
	// +optional
	// +crdforge:nocounterpart
	Color string `json:"color,omitempty"`
	// Size | in bytes; a pipe and `backticks` that the tables must escape.
	// +kubebuilder:validation:Pattern=`^[0-9]+(Ki|Mi)?$`
	// +optional
	// +crdforge:deprecated:warning="use spec.capacity; spec.size goes in v2"
	Size string `json:"size,omitempty"`
}

// GizmoStatus is the observed state of a Gizmo.
type GizmoStatus struct {
	// Ready says the gizmo serves.
	// +optional
	Ready bool `json:"ready,omitempty"`
}

// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:storageversion

// Gizmo is a thing that listens.
type Gizmo struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   GizmoSpec   `json:"spec,omitempty"`
	Status GizmoStatus `json:"status,omitempty"`
}

// +kubebuilder:object:root=true

// GizmoList is a list of Gizmos.
type GizmoList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Gizmo `json:"items"`
}

// +kubebuilder:object:root=true
// +kubebuilder:resource:scope=Cluster

// Knob has one version: its page has no version map.
type Knob struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// Turns is how far it is turned.
	// +optional
	Turns []int32 `json:"turns,omitempty"`
}

// +kubebuilder:object:root=true

// KnobList is a list of Knobs.
type KnobList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Knob `json:"items"`
}
