// Package v1 is version v1 of objects.crdforge.test.
// +kubebuilder:object:generate=true
// +groupName=objects.crdforge.test
package v1
