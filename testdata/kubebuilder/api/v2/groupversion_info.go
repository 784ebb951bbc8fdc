// Package v2 contains API Schema definitions for the batch v2 API group.
// +kubebuilder:object:generate=true
// +groupName=batch.tutorial.kubebuilder.io
package v2
