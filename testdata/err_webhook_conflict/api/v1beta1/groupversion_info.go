// Package v1beta1 is version v1beta1 of example.com.
// +kubebuilder:object:generate=true
// +groupName=example.com
// +crdforge:webhook:port=9443
package v1beta1
