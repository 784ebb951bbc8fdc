// Package v1 is version v1 of orders.example.com.
// +kubebuilder:object:generate=true
// +groupName=orders.example.com
package v1
