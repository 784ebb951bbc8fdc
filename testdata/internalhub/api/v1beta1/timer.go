package v1beta1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Timer is a kitchen timer. The internal package kitchen declares no Timer,
// so conversion-gen, which converts this package through kitchen, converts
// nothing of it.

// +kubebuilder:object:root=true

// Timer rings when its time is up.
type Timer struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec TimerSpec `json:"spec,omitempty"`
}

// TimerSpec is when a Timer rings.
type TimerSpec struct {
	// Seconds until it rings.
	Seconds int64 `json:"seconds,omitempty"`
}

// +kubebuilder:object:root=true

// TimerList is a list of Timers.
type TimerList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Timer `json:"items"`
}
