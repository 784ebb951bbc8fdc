package v1beta1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// OrderSpec is what is ordered.
type OrderSpec struct {
	// Quantity is how many, any int64.
	Quantity int64 `json:"quantity"`
	// Tier is the service tier, any string.
	Tier string `json:"tier"`
	// Limit caps spending, when set.
	// +optional
	Limit *int64 `json:"limit,omitempty"`
}

// +kubebuilder:object:root=true

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
