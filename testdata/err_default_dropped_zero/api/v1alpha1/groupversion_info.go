// Package v1alpha1 is version v1alpha1 of databases.example.com.
// +kubebuilder:object:generate=true
// +groupName=databases.example.com
package v1alpha1
