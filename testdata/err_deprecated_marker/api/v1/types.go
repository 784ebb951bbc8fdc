package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Port is one port.
type Port struct {
	Name string `json:"name"`

	// +crdforge:deprecated:warning="ports carry no protocol any more"
	// +optional
	Protocol string `json:"protocol,omitempty"`
}

// Common holds what every gizmo has.
type Common struct {
	// +optional
	Owner string `json:"owner,omitempty"`
}

// +crdforge:deprecated:warning="a type is not a field"
// Legacy is a type, not a field.
type Legacy struct{}

// Orphan is a struct no kind holds.
type Orphan struct {
	// +crdforge:deprecated:warning="nothing reaches this"
	Old string `json:"old"`
}

// GizmoSpec is the desired state of a Gizmo.
type GizmoSpec struct {
	// +crdforge:deprecated:warning=""
	// +optional
	Size int32 `json:"size,omitempty"`

	// +crdforge:deprecated:warning="inlined fields are their parent's"
	Common `json:",inline"`

	// +crdforge:deprecated:warning="never in the schema"
	Internal string `json:"-"`

	// +optional
	Ports []Port `json:"ports,omitempty"`

	// +crdforge:deprecated:warning="two\nlines"
	// +optional
	Color string `json:"color,omitempty"`

	// +crdforge:deprecated:warning="unexported"
	secret string `json:"secret,omitempty"`

	// +kubebuilder:default=fast
	// +crdforge:deprecated:warning="mode is always fast"
	// +optional
	Mode string `json:"mode,omitempty"`
}

// +kubebuilder:object:root=true

// Gizmo is a test kind whose +crdforge:deprecated markers are wrong.
type Gizmo struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec GizmoSpec `json:"spec,omitempty"`
}

// +kubebuilder:object:root=true

// GizmoList is a list of Gizmos.
type GizmoList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Gizmo `json:"items"`
}
