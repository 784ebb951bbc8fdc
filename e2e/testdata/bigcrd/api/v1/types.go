package v1

import (
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// PipelineSpec is the desired state of a Pipeline: a pod template per
// stage, as operators that run several workloads per object have (a
// database's primary, replicas and backup jobs).
type PipelineSpec struct {
	// Build is the pod that builds.
	Build corev1.PodTemplateSpec `json:"build"`
	// Test is the pod that tests.
	// +optional
	Test corev1.PodTemplateSpec `json:"test,omitempty"`
	// Release is the pod that releases.
	// +optional
	Release corev1.PodTemplateSpec `json:"release,omitempty"`
}

// +kubebuilder:object:root=true

// Pipeline is a kind with a large schema.
type Pipeline struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec PipelineSpec `json:"spec,omitempty"`
}

// +kubebuilder:object:root=true

// PipelineList is a list of Pipelines.
type PipelineList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Pipeline `json:"items"`
}
