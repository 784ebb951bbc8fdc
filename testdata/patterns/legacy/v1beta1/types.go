package v1beta1

import (
	"github.com/crdforge/crdforge/testdata/patterns/common"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// WidgetSpec is the desired state of a Widget.
type WidgetSpec struct {
	Size     int32               `json:"size"`
	MaxSurge *intstr.IntOrString `json:"maxSurge,omitempty"`
	Timeout  *metav1.Duration    `json:"timeout,omitempty"`
	// Title became DisplayName in v1.
	// +crdforge:hubfield=DisplayName
	Title string `json:"title,omitempty"`
}

// WidgetStatus is the observed state of a Widget.
type WidgetStatus struct {
	Conditions []common.Condition `json:"conditions,omitempty"`
	Ready      *metav1.Time       `json:"ready,omitempty"`
}

// +kubebuilder:object:root=true
// +kubebuilder:subresource:status

// Widget is the spoke.
type Widget struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              WidgetSpec   `json:"spec,omitempty"`
	Status            WidgetStatus `json:"status,omitempty"`
}

// +kubebuilder:object:root=true

// WidgetList is a list of Widgets.
type WidgetList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Widget `json:"items"`
}
