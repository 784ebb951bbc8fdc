// Package v12alpha1 is version v12alpha1 of example.com.
// +kubebuilder:object:generate=true
// +groupName=example.com
package v12alpha1
