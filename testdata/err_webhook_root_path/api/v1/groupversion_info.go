// Package v1 is version v1 of example.com.
// +kubebuilder:object:generate=true
// +groupName=example.com
package v1
