package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// LockerSpec is the desired state of a Locker.
type LockerSpec struct {
	// Owner is exported, so it is in the schema.
	Owner string `json:"owner"`

	// cache is unexported and has no JSON tag: controller-gen would report
	// it, unless crd:ignoreUnexportedFields (--ignore-unexported-fields)
	// leaves it out.
	cache string
}

// +kubebuilder:object:root=true
// Locker is a test kind with unexported fields.
type Locker struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec LockerSpec `json:"spec,omitempty"`
}

// +kubebuilder:object:root=true

// LockerList is a list of Lockers.
type LockerList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Locker `json:"items"`
}
