package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// GizmoSpec is the desired state of a Gizmo.
type GizmoSpec struct {
	// Title is what people call the gizmo.
	// +crdforge:hubfield=DisplayName
	Title string `json:"title"`
	// Host is the host name the gizmo listens on.
	// +crdforge:hubfield=Endpoint.Host
	// +optional
	Host string `json:"host,omitempty"`
	// Port is the port the gizmo listens on.
	// +crdforge:hubfield=Endpoint.Port
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=65535
	// +optional
	Port int32 `json:"port,omitempty"`
	// Replicas is how many copies run.
	Replicas int32 `json:"replicas"`
	// LegacyID identified the gizmo in the system v1alpha1 replaced; later
	// versions dropped it.
	// +optional
	// +crdforge:nocounterpart
	LegacyID string `json:"legacyID,omitempty"`
}

// GizmoStatus is the observed state of a Gizmo.
type GizmoStatus struct {
	// Ready says the gizmo serves.
	// +optional
	Ready bool `json:"ready,omitempty"`
}

// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:deprecatedversion:warning="gizmos.example.com/v1alpha1 Gizmo is deprecated; use gizmos.example.com/v1 Gizmo"

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
