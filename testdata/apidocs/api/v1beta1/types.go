package v1beta1

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

// Schedule wraps a cron expression: v1 holds the string itself, so the
// conversion is hand-written (conversion.go).
type Schedule struct {
	// Cron is the expression.
	Cron string `json:"cron"`
}

// GizmoSpec is the desired state of a Gizmo.
type GizmoSpec struct {
	// DisplayName is what people call the gizmo.
	DisplayName string `json:"displayName"`
	// Endpoint is where the gizmo listens.
	// +optional
	Endpoint Endpoint `json:"endpoint,omitempty"`
	// Replicas is how many copies run, any number: v1 takes 1 to 1000.
	Replicas int64 `json:"replicas"`
	// Schedule says when the gizmo runs.
	// +optional
	Schedule *Schedule `json:"schedule,omitempty"`
	// Size is in bytes.
	// +optional
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
