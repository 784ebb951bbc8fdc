// Package v1 is version v1 of pipelines.example.com, the storage version and
// the hub.
// +kubebuilder:object:generate=true
// +groupName=pipelines.example.com
package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// +kubebuilder:object:root=true
// +kubebuilder:storageversion

// Pipeline runs stages in order.
type Pipeline struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              PipelineSpec `json:"spec,omitempty"`
}

// PipelineSpec is the desired state of a Pipeline.
type PipelineSpec struct {
	// Stages run one after the other.
	Stages []Stage `json:"stages,omitempty"`
	// Concurrency caps the runs in flight.
	// +optional
	Concurrency *int32 `json:"concurrency,omitempty"`
	// Retention is how long finished runs are kept.
	// +optional
	Retention *Retention `json:"retention,omitempty"`
}

// Stage is one step of a pipeline.
type Stage struct {
	Name  string `json:"name"`
	Image string `json:"image"`
	// Timeout bounds the stage.
	// +optional
	Timeout *metav1.Duration `json:"timeout,omitempty"`
}

// Retention keeps finished runs.
type Retention struct {
	// Runs is how many are kept.
	Runs int32 `json:"runs"`
}

// +kubebuilder:object:root=true

// PipelineList is a list of Pipelines.
type PipelineList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Pipeline `json:"items"`
}
