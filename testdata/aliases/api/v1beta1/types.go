package v1beta1

import (
	v1 "github.com/crdforge/crdforge/testdata/aliases/api/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +k8s:conversion-gen=false

// Route sends traffic for host names to backends. The opt-out above, across
// a blank line, is not the type's comment to conversion-gen (Cluster API's
// MachinePool has one such): Route still converts.
type Route struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              RouteSpec   `json:"spec,omitempty"`
	Status            RouteStatus `json:"status,omitempty"`
}

// RouteSpec is v1's, field by field: a struct of this package whose fields
// are of v1's types, with no alias.
type RouteSpec struct {
	Hostnames []v1.Hostname    `json:"hostnames,omitempty"`
	Rules     []v1.RouteRule   `json:"rules,omitempty"`
	Timeout   *metav1.Duration `json:"timeout,omitempty"`
}

// RouteStatus is v1's.
type RouteStatus = v1.RouteStatus

// +kubebuilder:object:root=true

// RouteList is a list of Routes.
type RouteList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Route `json:"items"`
}

// +kubebuilder:object:root=true
// +kubebuilder:storageversion

// Grant lets routes of other namespaces refer to this one's backends. Its
// storage version is this one, yet v1 is its hub: this package imports v1.
type Grant struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              GrantSpec `json:"spec,omitempty"`
}

// GrantSpec is v1's.
type GrantSpec = v1.GrantSpec

// +kubebuilder:object:root=true

// GrantList is a list of Grants.
type GrantList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Grant `json:"items"`
}
