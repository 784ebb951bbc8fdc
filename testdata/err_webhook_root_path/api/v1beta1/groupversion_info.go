// Package v1beta1 is version v1beta1 of example.com.
// +kubebuilder:object:generate=true
// +groupName=example.com
package v1beta1
