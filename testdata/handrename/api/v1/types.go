// Package v1 is version v1 of shop.example.com, the storage version and
// hub. Issue 52's Order: v1alpha1's customer became customerRef.name, and
// its items became structs.
// +kubebuilder:object:generate=true
// +groupName=shop.example.com
package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// +kubebuilder:object:root=true
// +kubebuilder:storageversion

// Order is an order of items for a customer.
type Order struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              OrderSpec `json:"spec,omitempty"`
}

// OrderSpec is the desired state of an Order.
type OrderSpec struct {
	CustomerRef CustomerRef `json:"customerRef,omitempty"`
	Items       []Item      `json:"items,omitempty"`
}

// CustomerRef names the customer an order is for.
type CustomerRef struct {
	Name string `json:"name,omitempty"`
}

// Item is one item of an order.
type Item struct {
	Name string `json:"name"`
}

// +kubebuilder:object:root=true

// OrderList is a list of Orders.
type OrderList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Order `json:"items"`
}
