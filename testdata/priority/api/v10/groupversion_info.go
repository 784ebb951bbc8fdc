// Package v10 is version v10 of example.com.
// +kubebuilder:object:generate=true
// +groupName=example.com
package v10
