package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// Color is an enum that gained a value in v1.
// +kubebuilder:validation:Enum=Red;Green;Blue
type Color string

// Item is an element of lists and maps.
type Item struct {
	Name string `json:"name"`
}

// NetworkSpec is where v2's Host and Port moved.
type NetworkSpec struct {
	Host  string `json:"host,omitempty"`
	Port  int32  `json:"port,omitempty"`
	Proto string `json:"proto,omitempty"`
}

// ThingSpec is the hub spec.
type ThingSpec struct {
	Same       string            `json:"same,omitempty"`
	PtrToValue int32             `json:"ptrToValue,omitempty"`
	ValueToPtr *int32            `json:"valueToPtr,omitempty"`
	Color      Color             `json:"color,omitempty"`
	Items      []Item            `json:"items,omitempty"`
	ByName     map[string]Item   `json:"byName,omitempty"`
	Since      metav1.Time       `json:"since,omitempty"`
	Timeout    string            `json:"timeout,omitempty"`
	Network    *NetworkSpec      `json:"network,omitempty"`
	HubOnly    string            `json:"hubOnly,omitempty"`
	Labels     map[string]string `json:"labels,omitempty"`
}

// +kubebuilder:object:root=true
// +kubebuilder:storageversion

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

// SecretSpec is the hub spec of Secret.
type SecretSpec struct {
	Name  string `json:"name,omitempty"`
	Token string `json:"token,omitempty"`
}

// +kubebuilder:object:root=true
// +kubebuilder:storageversion

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
