package v1beta1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// AppleSpec is the desired state of an Apple.
type AppleSpec struct {
	// Variety names the apple's variety.
	Variety string `json:"variety"`
}

// +kubebuilder:object:root=true

// Apple is the first of several kinds in one group.
type Apple struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec AppleSpec `json:"spec,omitempty"`
}

// +kubebuilder:object:root=true

// AppleList is a list of Apples.
type AppleList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Apple `json:"items"`
}

// BasketSpec is the desired state of a Basket.
type BasketSpec struct {
	// Apples names the apples in the basket.
	// +optional
	Apples []string `json:"apples,omitempty"`
}

// BasketStatus is the observed state of a Basket.
type BasketStatus struct {
	// Count is how many apples it holds.
	// +optional
	Count int32 `json:"count,omitempty"`
}

// +kubebuilder:object:root=true
// +kubebuilder:resource:scope=Cluster,shortName=bk
// +kubebuilder:subresource:status

// Basket is a cluster-scoped kind in the same group.
type Basket struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   BasketSpec   `json:"spec,omitempty"`
	Status BasketStatus `json:"status,omitempty"`
}

// +kubebuilder:object:root=true

// BasketList is a list of Baskets.
type BasketList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Basket `json:"items"`
}
