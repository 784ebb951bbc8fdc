// Package v1 is version v1 of layouts.example.com.
// +kubebuilder:object:generate=true
// +groupName=layouts.example.com
package v1
