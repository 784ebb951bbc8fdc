// Package v11beta2 is version v11beta2 of example.com.
// +kubebuilder:object:generate=true
// +groupName=example.com
package v11beta2
