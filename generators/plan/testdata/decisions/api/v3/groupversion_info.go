// Package v3 is version v3 of decisions.example.com.
// +kubebuilder:object:generate=true
// +groupName=decisions.example.com
package v3
