// Package v1beta1 is version v1beta1 of gadgets.example.com.
// +kubebuilder:object:generate=true
// +groupName=gadgets.example.com
package v1beta1
