// Package v1beta1 is version v1beta1 of pipelines.example.com. Its
// zz_generated.conversion.go is another generator's: stagemap, which writes
// converters between the stage types of the two versions into the file
// conversion-gen would use, as Crossplane's goverter does. The package's
// own code calls them, so crdforge writes its conversions beside it.
// +kubebuilder:object:generate=true
// +groupName=pipelines.example.com
package v1beta1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// +kubebuilder:object:root=true

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
}

// Stage is one step of a pipeline.
type Stage struct {
	Name  string `json:"name"`
	Image string `json:"image"`
	// Timeout bounds the stage.
	// +optional
	Timeout *metav1.Duration `json:"timeout,omitempty"`
}

// +kubebuilder:object:root=true

// PipelineList is a list of Pipelines.
type PipelineList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Pipeline `json:"items"`
}
