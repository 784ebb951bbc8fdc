// Package v1beta1 is version v1beta1 of net.example.com: its types are v1's,
// through aliases, or structs of v1's types.
// +kubebuilder:object:generate=true
// +groupName=net.example.com
package v1beta1
