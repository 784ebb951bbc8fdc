// Package v2 is version v2 of decisions.example.com.
// +kubebuilder:object:generate=true
// +groupName=decisions.example.com
package v2
