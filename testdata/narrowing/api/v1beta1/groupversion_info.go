// Package v1beta1 is version v1beta1 of orders.example.com.
// +kubebuilder:object:generate=true
// +groupName=orders.example.com
package v1beta1
