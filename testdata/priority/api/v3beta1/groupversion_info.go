// Package v3beta1 is version v3beta1 of example.com.
// +kubebuilder:object:generate=true
// +groupName=example.com
package v3beta1
