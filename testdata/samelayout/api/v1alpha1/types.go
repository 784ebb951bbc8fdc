package v1alpha1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// Severity says how bad a failing condition is.
type Severity string

// ConditionType names a condition.
type ConditionType string

// Condition is common.Condition as v1alpha1 declared it: the same fields,
// one omitempty more.
type Condition struct {
	Type               ConditionType          `json:"type"`
	Status             metav1.ConditionStatus `json:"status"`
	Severity           Severity               `json:"severity,omitempty"`
	LastTransitionTime metav1.Time            `json:"lastTransitionTime,omitempty"`
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

// Badge is common.Badge under another JSON name: not its twin.
type Badge struct {
	Label string `json:"title"`
}

// Stamp is laid out as common.Stamp, but converts by hand.
type Stamp struct {
	Label string `json:"label"`
}

// BeaconSpec is the desired state of a Beacon.
type BeaconSpec struct {
	Template ObjectMeta `json:"template,omitempty"`
	Period   int32      `json:"period,omitempty"`
}

// BeaconStatus is the observed state of a Beacon.
type BeaconStatus struct {
	Conditions Conditions `json:"conditions,omitempty"`
	Sites      Sites      `json:"sites,omitempty"`
}

// Extras is v1's Extras with look-alikes that are not same-layout copies.
type Extras struct {
	Badge Badge `json:"badge"`
	Stamp Stamp `json:"stamp"`
}

// +kubebuilder:object:root=true
// +kubebuilder:subresource:status

// Beacon is a test kind.
type Beacon struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              BeaconSpec   `json:"spec,omitempty"`
	Status            BeaconStatus `json:"status,omitempty"`
}

// +kubebuilder:object:root=true

// BeaconList is a list of Beacons.
type BeaconList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Beacon `json:"items"`
}
