// Package v1beta1 is version v1beta1 of layouts.example.com.
// +kubebuilder:object:generate=true
// +groupName=layouts.example.com
package v1beta1
