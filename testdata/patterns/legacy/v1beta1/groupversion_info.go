// Package v1beta1 is version v1beta1 of widgets.example.com, a spoke kept
// apart from the hub, as Cluster API keeps its old versions under
// internal/apis.
// +kubebuilder:object:generate=true
// +groupName=widgets.example.com
package v1beta1
