// Package v1 is version v1 of parts.example.com, the storage version and
// hub. The group has never converted: its CRDs were served with strategy
// None, as Kyverno serves its policies. Widget and Gadget share a Size that
// changed type, which only a hand-written function can convert; Sprocket
// converts mechanically; Policy changed type too, and its author says None
// is meant.
// +kubebuilder:object:generate=true
// +groupName=parts.example.com
package v1

import (
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Size is how big a part is, in millimetres.
type Size struct {
	Millimetres int32 `json:"millimetres"`
}

// +kubebuilder:object:root=true
// +kubebuilder:storageversion

// Widget is a part.
type Widget struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              WidgetSpec `json:"spec,omitempty"`
}

// WidgetSpec is the desired state of a Widget.
type WidgetSpec struct {
	Size Size `json:"size"`
}

// +kubebuilder:object:root=true

// WidgetList is a list of Widgets.
type WidgetList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Widget `json:"items"`
}

// +kubebuilder:object:root=true
// +kubebuilder:storageversion

// Gadget is a part made of sized pieces.
type Gadget struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              GadgetSpec `json:"spec,omitempty"`
}

// GadgetSpec is the desired state of a Gadget.
type GadgetSpec struct {
	Pieces []Size `json:"pieces,omitempty"`
}

// +kubebuilder:object:root=true

// GadgetList is a list of Gadgets.
type GadgetList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Gadget `json:"items"`
}

// +kubebuilder:object:root=true
// +kubebuilder:storageversion

// Sprocket is a part whose versions differ only in field names.
type Sprocket struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              SprocketSpec `json:"spec,omitempty"`
}

// SprocketSpec is the desired state of a Sprocket.
type SprocketSpec struct {
	Teeth int32 `json:"teeth"`
}

// +kubebuilder:object:root=true

// SprocketList is a list of Sprockets.
type SprocketList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Sprocket `json:"items"`
}

// +kubebuilder:object:root=true
// +kubebuilder:storageversion
// +crdforge:conversion:strategy=None

// Policy holds a rule whose type changed between versions; both versions'
// JSON is the same, so the API server serves them without converting.
type Policy struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              PolicySpec `json:"spec,omitempty"`
}

// PolicySpec is the desired state of a Policy.
type PolicySpec struct {
	// Rule is kept as written.
	// +kubebuilder:pruning:PreserveUnknownFields
	// +kubebuilder:validation:Schemaless
	Rule *apiextensionsv1.JSON `json:"rule,omitempty"`
}

// +kubebuilder:object:root=true

// PolicyList is a list of Policies.
type PolicyList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Policy `json:"items"`
}
