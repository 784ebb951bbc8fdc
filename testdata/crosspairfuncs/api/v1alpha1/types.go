// Package v1alpha1 is the first version of signals.example.com: Alarm and
// Hook, each with its own TargetRef and Window.
// +kubebuilder:object:generate=true
// +groupName=signals.example.com
package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// TargetRef points at an object a signal is about.
type TargetRef struct {
	Kind string `json:"kind"`
	Name string `json:"name"`
	// +optional
	Namespace string `json:"namespace,omitempty"`
}

// Window is when an alarm may ring.
type Window struct {
	From string `json:"from"`
	To   string `json:"to"`
}

// +kubebuilder:object:root=true

// Alarm rings when one of its targets fails.
type Alarm struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              AlarmSpec `json:"spec,omitempty"`
}

// AlarmSpec is the desired state of an Alarm.
type AlarmSpec struct {
	Summary string      `json:"summary,omitempty"`
	Targets []TargetRef `json:"targets,omitempty"`
	// +optional
	Owner  *TargetRef `json:"owner,omitempty"`
	Window Window     `json:"window"`
}

// +kubebuilder:object:root=true

// AlarmList is a list of Alarms.
type AlarmList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Alarm `json:"items"`
}

// +kubebuilder:object:root=true

// Hook calls a URL when its target changes.
type Hook struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              HookSpec `json:"spec,omitempty"`
}

// HookSpec is the desired state of a Hook.
type HookSpec struct {
	URL     string      `json:"url"`
	Targets []TargetRef `json:"targets,omitempty"`
}

// +kubebuilder:object:root=true

// HookList is a list of Hooks.
type HookList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Hook `json:"items"`
}
