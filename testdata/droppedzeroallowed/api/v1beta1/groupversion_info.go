// Package v1beta1 is version v1beta1 of queues.example.com.
// +kubebuilder:object:generate=true
// +groupName=queues.example.com
package v1beta1
