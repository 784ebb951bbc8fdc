// Package v2 is version v2 of pairs.example.com.
// +kubebuilder:object:generate=true
// +groupName=pairs.example.com
package v2
