// Package v1beta1 is version v1beta1 of caches.example.com.
// +kubebuilder:object:generate=true
// +groupName=caches.example.com
package v1beta1
