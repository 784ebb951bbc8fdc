package v2

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// Color is an enum with fewer values than v1's.
// +kubebuilder:validation:Enum=Red;Green
type Color string

// Item is an element of lists and maps, with a field v1 lacks.
type Item struct {
	Name  string `json:"name"`
	Extra string `json:"extra,omitempty"`
}

// ThingSpec is the spoke spec.
type ThingSpec struct {
	Same       string          `json:"same,omitempty"`
	PtrToValue *int32          `json:"ptrToValue,omitempty"`
	ValueToPtr int32           `json:"valueToPtr,omitempty"`
	Color      Color           `json:"color,omitempty"`
	Items      []Item          `json:"items,omitempty"`
	ByName     map[string]Item `json:"byName,omitempty"`
	Since      metav1.Time     `json:"since,omitempty"`
	// Timeout is a duration here and a string in v1: no mechanical conversion.
	Timeout metav1.Duration `json:"timeout,omitempty"`
	// +crdforge:hubfield=Network.Host
	Host string `json:"host,omitempty"`
	// +crdforge:hubfield=Network.Port
	Port      int32             `json:"port,omitempty"`
	SpokeOnly string            `json:"spokeOnly,omitempty"`
	Labels    map[string]string `json:"labels,omitempty"`
}

// +kubebuilder:object:root=true

// Thing converts mechanically.
type Thing struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              ThingSpec `json:"spec,omitempty"`
}

// +kubebuilder:object:root=true

// ThingList is a list of Things.
type ThingList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Thing `json:"items"`
}

// SecretSpec is the spoke spec of Secret.
type SecretSpec struct {
	Name string `json:"name,omitempty"`
	// +k8s:conversion-gen=false
	Token string `json:"token,omitempty"`
}

// +kubebuilder:object:root=true

// Secret has a field opted out of generated conversion.
type Secret struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              SecretSpec `json:"spec,omitempty"`
}

// +kubebuilder:object:root=true

// SecretList is a list of Secrets.
type SecretList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Secret `json:"items"`
}
