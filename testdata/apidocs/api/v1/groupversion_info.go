// Package v1 is version v1 of gizmos.example.com.
// +kubebuilder:object:generate=true
// +groupName=gizmos.example.com
package v1
