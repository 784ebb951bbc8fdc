// Package v1 is version v1 of caches.example.com.
// +kubebuilder:object:generate=true
// +groupName=caches.example.com
package v1
