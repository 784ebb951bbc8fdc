// Package v1 contains API Schema definitions for the apps v1 API group.
// +kubebuilder:object:generate=true
// +groupName=apps.example.com
package v1
