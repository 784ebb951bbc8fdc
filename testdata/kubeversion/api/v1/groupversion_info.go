// Package v1 is version v1 of gadgets.example.com.
// +kubebuilder:object:generate=true
// +groupName=gadgets.example.com
package v1
