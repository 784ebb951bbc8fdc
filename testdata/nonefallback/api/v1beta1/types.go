// Package v1beta1 is version v1beta1 of parts.example.com.
// +kubebuilder:object:generate=true
// +groupName=parts.example.com
package v1beta1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Size is how big a part is, as written on its label ("12mm").
type Size struct {
	Millimetres string `json:"millimetres"`
}

// +kubebuilder:object:root=true

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

// Sprocket is a part whose versions differ only in field names.
type Sprocket struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              SprocketSpec `json:"spec,omitempty"`
}

// SprocketSpec is the desired state of a Sprocket.
type SprocketSpec struct {
	// +crdforge:hubfield=Teeth
	Cogs int32 `json:"cogs"`
}

// +kubebuilder:object:root=true

// SprocketList is a list of Sprockets.
type SprocketList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Sprocket `json:"items"`
}

// +kubebuilder:object:root=true

// Policy holds a rule whose type changed between versions.
type Policy struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              PolicySpec `json:"spec,omitempty"`
}

// PolicySpec is the desired state of a Policy.
type PolicySpec struct {
	Rule *Rule `json:"rule,omitempty"`
}

// Rule is a named rule.
type Rule struct {
	Name string `json:"name"`
}

// +kubebuilder:object:root=true

// PolicyList is a list of Policies.
type PolicyList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Policy `json:"items"`
}
