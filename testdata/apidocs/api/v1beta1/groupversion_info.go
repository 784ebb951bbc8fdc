// Package v1beta1 is version v1beta1 of gizmos.example.com.
// +kubebuilder:object:generate=true
// +groupName=gizmos.example.com
package v1beta1
