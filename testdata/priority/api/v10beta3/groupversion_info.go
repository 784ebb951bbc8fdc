// Package v10beta3 is version v10beta3 of example.com.
// +kubebuilder:object:generate=true
// +groupName=example.com
package v10beta3
