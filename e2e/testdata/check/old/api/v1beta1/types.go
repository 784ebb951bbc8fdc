package v1beta1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// GaugeSpec is the desired state of a Gauge.
type GaugeSpec struct {
	// Level is how full.
	// +optional
	Level int32 `json:"level,omitempty"`
}

// +kubebuilder:object:root=true
// +kubebuilder:storageversion
// Gauge is the kind e2e's TestCheckAgainstCluster installs.
type Gauge struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec GaugeSpec `json:"spec,omitempty"`
}
