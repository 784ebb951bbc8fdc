// Copied from examples/widgets/api/v1/widget_types.go for the conversion
// benchmark (see ../README.md): conversion-gen needs the types in a package it
// can tag. Keep in sync with the original by hand: below this comment the file
// is identical to it. The kubebuilder markers are inert here (crdforge only
// generates for packages with +groupName; conversion-gen ignores them).

package v1

import (
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// WidgetSize is how big a widget is.
// +kubebuilder:validation:Enum=Small;Medium;Large;XLarge
type WidgetSize string

// The sizes a widget comes in. XLarge is new in v1.
const (
	SizeSmall  WidgetSize = "Small"
	SizeMedium WidgetSize = "Medium"
	SizeLarge  WidgetSize = "Large"
	SizeXLarge WidgetSize = "XLarge"
)

// Network is where a widget listens.
type Network struct {
	// Host is the host name.
	// +optional
	Host string `json:"host,omitempty"`
	// Port is the port, by number or name.
	// +optional
	Port intstr.IntOrString `json:"port,omitempty"`
}

// Part is one component of a widget.
type Part struct {
	// Name names the part.
	Name string `json:"name"`
	// Count is how many the widget holds.
	// +kubebuilder:validation:Minimum=0
	Count int32 `json:"count"`
	// Weight is what one weighs.
	// +optional
	Weight *resource.Quantity `json:"weight,omitempty"`
}

// Finish is how one surface of a widget looks.
type Finish struct {
	// Color is the surface color.
	Color string `json:"color"`
	// Gloss is how shiny it is, 0 to 100.
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:Maximum=100
	// +optional
	Gloss int32 `json:"gloss,omitempty"`
}

// Warranty is new in v1.
type Warranty struct {
	// Years of coverage.
	Years int32 `json:"years"`
	// Until is when coverage ends.
	// +optional
	Until *metav1.Time `json:"until,omitempty"`
}

// WidgetSpec is the desired state of a Widget.
type WidgetSpec struct {
	// DisplayName is what people call the widget; v1alpha1 called it title.
	DisplayName string `json:"displayName"`
	// Size is how big it is.
	// +optional
	Size WidgetSize `json:"size,omitempty"`
	// Network groups the address fields that v1alpha1 kept at the top level.
	// +optional
	Network Network `json:"network,omitempty"`
	// Replicas is how many copies run; unset means the controller decides.
	// +optional
	Replicas *int32 `json:"replicas,omitempty"`
	// Parts lists the widget's components.
	// +listType=map
	// +listMapKey=name
	// +optional
	Parts []Part `json:"parts,omitempty"`
	// Finishes maps a surface name to its finish.
	// +optional
	Finishes map[string]Finish `json:"finishes,omitempty"`
	// Labels are copied to what the widget creates.
	// +optional
	Labels map[string]string `json:"labels,omitempty"`
	// Options are free-form settings.
	// +kubebuilder:pruning:PreserveUnknownFields
	// +optional
	Options runtime.RawExtension `json:"options,omitempty"`
	// Warranty is new in v1.
	// +optional
	Warranty *Warranty `json:"warranty,omitempty"`
}

// WidgetStatus is the observed state of a Widget.
type WidgetStatus struct {
	// ObservedGeneration is the generation last acted on.
	// +optional
	ObservedGeneration int64 `json:"observedGeneration,omitempty"`
	// Conditions describe the widget's state.
	// +listType=map
	// +listMapKey=type
	// +optional
	Conditions []metav1.Condition `json:"conditions,omitempty"`
}

// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:storageversion
// +kubebuilder:printcolumn:name="Size",type=string,JSONPath=`.spec.size`
// +kubebuilder:printcolumn:name="Age",type=date,JSONPath=`.metadata.creationTimestamp`

// Widget is a thing made of parts.
type Widget struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   WidgetSpec   `json:"spec,omitempty"`
	Status WidgetStatus `json:"status,omitempty"`
}

// +kubebuilder:object:root=true

// WidgetList is a list of Widgets.
type WidgetList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Widget `json:"items"`
}
