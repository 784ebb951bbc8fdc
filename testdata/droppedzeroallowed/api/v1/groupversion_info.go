// Package v1 is version v1 of queues.example.com.
// +kubebuilder:object:generate=true
// +groupName=queues.example.com
package v1
