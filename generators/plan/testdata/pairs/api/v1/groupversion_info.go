// Package v1 is version v1 of pairs.example.com.
// +kubebuilder:object:generate=true
// +groupName=pairs.example.com
package v1
