package v1beta1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// GaugeSpec is the desired state of a Gauge.
type GaugeSpec struct {
	Common `json:",inline"`
	// Level is the fill level.
	Level int32 `json:"level,omitempty"`
	// Secret is kept out of generated conversions.
	// +k8s:conversion-gen=false
	Secret string `json:"secret,omitempty"`
}

// +kubebuilder:object:root=true

// Gauge is a test kind.
type Gauge struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   GaugeSpec   `json:"spec,omitempty"`
	Status GaugeStatus `json:"status,omitempty"`
}

// +kubebuilder:object:root=true

// GaugeList is a list of Gauges.
type GaugeList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Gauge `json:"items"`
}
