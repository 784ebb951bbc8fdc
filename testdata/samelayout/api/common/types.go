// Package common holds status types that an API's versions share, as
// another module's API would publish them: v1 holds these; v1alpha1 keeps
// copies of its own, declared as they were when it was written.
// +kubebuilder:object:generate=true
package common

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// Severity says how bad a failing condition is.
type Severity string

// ConditionType names a condition.
type ConditionType string

// Condition is one observation of a beacon's state.
type Condition struct {
	Type               ConditionType          `json:"type"`
	Status             metav1.ConditionStatus `json:"status"`
	Severity           Severity               `json:"severity,omitempty"`
	LastTransitionTime metav1.Time            `json:"lastTransitionTime"`
	Reason             string                 `json:"reason,omitempty"`
}

// Conditions is a list of conditions.
type Conditions []Condition

// ObjectMeta is the metadata a beacon stamps on what it creates.
type ObjectMeta struct {
	Labels      map[string]string `json:"labels,omitempty"`
	Annotations map[string]string `json:"annotations,omitempty"`
}

// Site is where a beacon is seen from.
type Site struct {
	Primary bool              `json:"primary"`
	Tags    map[string]string `json:"tags,omitempty"`
}

// Sites are sites by name.
type Sites map[string]Site

// Badge looks like v1alpha1's Badge, but its JSON name differs.
type Badge struct {
	Label string `json:"label"`
}

// Stamp looks like v1alpha1's Stamp, which converts by hand.
type Stamp struct {
	Label string `json:"label"`
}
