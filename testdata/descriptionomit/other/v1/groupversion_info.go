// Package v1 is version v1 of other.example.com. The marker below leaves
// out the description of every type this package declares, and of
// everything their schemas hold.
// +kubebuilder:object:generate=true
// +groupName=other.example.com
// +crdforge:description:omit
package v1
