// Package v1 is version v1 of widgets.example.com, the hub.
// +kubebuilder:object:generate=true
// +groupName=widgets.example.com
package v1
