// An accepted narrowing: older versions take any quantity and tier, v1
// bounds the one and enumerates the other. With no hand-written code, the
// generated round trips fill those fields with values v1 accepts, and the
// generated narrowing tests check that the others fail.
package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Tier is a service tier.
// +kubebuilder:validation:Enum=Basic;Premium
type Tier string

// OrderSpec is what is ordered.
type OrderSpec struct {
	// Quantity is how many.
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=1000
	Quantity int32 `json:"quantity"`
	// Tier is the service tier.
	Tier Tier `json:"tier"`
	// Limit caps spending, when set.
	// +kubebuilder:validation:Maximum=100000
	// +optional
	Limit *int64 `json:"limit,omitempty"`
}

// +kubebuilder:object:root=true
// +kubebuilder:storageversion

// Order is an order.
type Order struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec OrderSpec `json:"spec,omitempty"`
}

// +kubebuilder:object:root=true

// OrderList is a list of Orders.
type OrderList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Order `json:"items"`
}
