// Package v2beta1 is the storage version and hub of Alarm. It uses v1's
// TargetRef, and a Window of its own.
// +kubebuilder:object:generate=true
// +groupName=signals.example.com
package v2beta1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	v1 "github.com/crdforge/crdforge/testdata/crosspairfuncs/api/v1"
)

// Window is when an alarm may ring.
type Window struct {
	From string `json:"from"`
	To   string `json:"to"`
}

// +kubebuilder:object:root=true
// +kubebuilder:storageversion

// Alarm rings when one of its targets fails.
type Alarm struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              AlarmSpec `json:"spec,omitempty"`
}

// AlarmSpec is the desired state of an Alarm.
type AlarmSpec struct {
	Summary string         `json:"summary,omitempty"`
	Targets []v1.TargetRef `json:"targets,omitempty"`
	// +optional
	Owner  *v1.TargetRef `json:"owner,omitempty"`
	Window Window        `json:"window"`
}

// +kubebuilder:object:root=true

// AlarmList is a list of Alarms.
type AlarmList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Alarm `json:"items"`
}
