package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// MeterSpec is the desired state of a Meter.
type MeterSpec struct {
	// Level is how far the needle goes.
	// +kubebuilder:validation:Maximum=20
	// +optional
	Level int32 `json:"level,omitempty"`
}

// +kubebuilder:object:root=true

// Meter is the kind e2e's TestCheckObjectsAgainstCluster installs; its
// level is at most 20 here.
type Meter struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec MeterSpec `json:"spec,omitempty"`
}
