// Package v1alpha1 is version v1alpha1 of gizmos.example.com.
// +kubebuilder:object:generate=true
// +groupName=gizmos.example.com
package v1alpha1
