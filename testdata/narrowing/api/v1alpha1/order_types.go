package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// OrderSpec is what is ordered.
type OrderSpec struct {
	// Qty is how many: v1 calls it quantity and bounds it.
	// +crdforge:hubfield=Quantity
	Qty int32 `json:"qty"`
	// Tier is the service tier, any string.
	Tier string `json:"tier,omitempty"`
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
