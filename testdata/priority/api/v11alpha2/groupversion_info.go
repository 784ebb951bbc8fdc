// Package v11alpha2 is version v11alpha2 of example.com.
// +kubebuilder:object:generate=true
// +groupName=example.com
package v11alpha2
