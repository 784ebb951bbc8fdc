// Package v1 is version v1 of decisions.example.com.
// +kubebuilder:object:generate=true
// +groupName=decisions.example.com
package v1
