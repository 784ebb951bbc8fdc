// Package v1beta2 is version v1beta2 of example.com.
// +kubebuilder:object:generate=true
// +groupName=example.com
package v1beta2
