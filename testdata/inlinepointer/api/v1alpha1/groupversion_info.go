// Package v1alpha1 is version v1alpha1 of example.com.
// +kubebuilder:object:generate=true
// +groupName=example.com
package v1alpha1
