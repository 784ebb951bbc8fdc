// Package v1alpha1 is version v1alpha1 of shop.example.com.
// +kubebuilder:object:generate=true
// +groupName=shop.example.com
package v1alpha1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// +kubebuilder:object:root=true

// Order is an order of items for a customer.
type Order struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              OrderSpec `json:"spec,omitempty"`
}

// OrderSpec is the desired state of an Order.
type OrderSpec struct {
	// Customer is v1's customerRef.name, which nothing tells crdforge.
	Customer string   `json:"customer,omitempty"`
	Items    []string `json:"items,omitempty"`
}

// +kubebuilder:object:root=true

// OrderList is a list of Orders.
type OrderList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Order `json:"items"`
}
