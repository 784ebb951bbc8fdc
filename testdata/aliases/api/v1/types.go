package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// +kubebuilder:object:root=true
// +kubebuilder:storageversion
// +kubebuilder:subresource:status

// Route sends traffic for host names to backends.
type Route struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              RouteSpec   `json:"spec,omitempty"`
	Status            RouteStatus `json:"status,omitempty"`
}

// RouteSpec is the desired state of a Route.
type RouteSpec struct {
	Hostnames []Hostname       `json:"hostnames,omitempty"`
	Rules     []RouteRule      `json:"rules,omitempty"`
	Timeout   *metav1.Duration `json:"timeout,omitempty"`
}

// Hostname is a DNS name.
// +kubebuilder:validation:MaxLength=253
type Hostname string

// RouteRule sends matching traffic to weighted backends.
type RouteRule struct {
	Name     string       `json:"name,omitempty"`
	Weight   *int32       `json:"weight,omitempty"`
	Backends []BackendRef `json:"backends,omitempty"`
}

// BackendRef names a Service port.
type BackendRef struct {
	Name string `json:"name"`
	Port int32  `json:"port,omitempty"`
}

// RouteStatus is the observed state of a Route.
type RouteStatus struct {
	Conditions []metav1.Condition `json:"conditions,omitempty"`
}

// +kubebuilder:object:root=true

// RouteList is a list of Routes.
type RouteList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Route `json:"items"`
}

// +kubebuilder:object:root=true

// Grant lets routes of other namespaces refer to this one's backends.
type Grant struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              GrantSpec `json:"spec,omitempty"`
}

// GrantSpec lists who may refer to what.
type GrantSpec struct {
	From []string     `json:"from,omitempty"`
	To   []BackendRef `json:"to,omitempty"`
}

// +kubebuilder:object:root=true

// GrantList is a list of Grants.
type GrantList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Grant `json:"items"`
}
