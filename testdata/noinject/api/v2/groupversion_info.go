// Package v2 is version v2 of example.com.
// +kubebuilder:object:generate=true
// +groupName=example.com
package v2
