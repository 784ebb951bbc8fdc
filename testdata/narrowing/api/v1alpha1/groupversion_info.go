// Package v1alpha1 is version v1alpha1 of orders.example.com.
// +kubebuilder:object:generate=true
// +groupName=orders.example.com
package v1alpha1
