package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// GaugeSpec is the desired state of a Gauge.
type GaugeSpec struct {
	// Ratio is a float64, which controller-gen admits only with
	// crd:allowDangerousTypes and crdforge with --allow-dangerous-types.
	Ratio float64 `json:"ratio"`
	// Scale is a float32.
	// +optional
	Scale float32 `json:"scale,omitempty"`
	// Limits holds floats too.
	// +optional
	Limits []float64 `json:"limits,omitempty"`
}

// +kubebuilder:object:root=true
// Gauge is a test kind with float fields.
type Gauge struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec GaugeSpec `json:"spec,omitempty"`
}

// +kubebuilder:object:root=true

// GaugeList is a list of Gauges.
type GaugeList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Gauge `json:"items"`
}
