// Package v1beta1 is version v1beta1 of infra.example.com: a field renamed without a
// marker, and conditions that became metav1.Conditions, converted by hand
// the conversion-gen way.
// +kubebuilder:object:generate=true
// +groupName=infra.example.com
package v1beta1
