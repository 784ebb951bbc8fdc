// Package v1 is version v1 of databases.example.com.
// +kubebuilder:object:generate=true
// +groupName=databases.example.com
package v1
