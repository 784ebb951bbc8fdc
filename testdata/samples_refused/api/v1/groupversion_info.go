// Package v1 is version v1 of samples.example.com.
// +kubebuilder:object:generate=true
// +groupName=samples.example.com
package v1
