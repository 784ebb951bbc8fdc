// Package v1 is version v1 of batch.example.com, laid out as kubebuilder's
// multiversion tutorial leaves it: Hub, ConvertTo and ConvertFrom written
// by hand.
// +kubebuilder:object:generate=true
// +groupName=batch.example.com
package v1
