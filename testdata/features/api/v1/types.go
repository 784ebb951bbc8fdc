package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// ThingamajigSpec is the desired state of a Thingamajig.
// +kubebuilder:validation:XValidation:rule="self.minReplicas <= self.replicas",message="replicas must not be below minReplicas"
type ThingamajigSpec struct {
	// Replicas is how many to run.
	// +kubebuilder:default=1
	// +kubebuilder:validation:Minimum=0
	Replicas int32 `json:"replicas"`

	// MinReplicas is the floor for Replicas.
	// +kubebuilder:default=0
	MinReplicas int32 `json:"minReplicas"`

	// Mode is how it runs.
	// +kubebuilder:validation:Enum=Fast;Careful
	// +kubebuilder:default=Careful
	// +optional
	Mode string `json:"mode,omitempty"`

	// Tags label the thingamajig; at most eight.
	// +kubebuilder:validation:MaxItems=8
	// +kubebuilder:validation:items:MaxLength=63
	// +listType=set
	// +optional
	Tags []string `json:"tags,omitempty"`

	// Name must stay the same once set.
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="name is immutable"
	// +kubebuilder:validation:MaxLength=253
	// +optional
	Name string `json:"name,omitempty"`
}

// ThingamajigStatus is the observed state of a Thingamajig.
type ThingamajigStatus struct {
	// Replicas is how many are running.
	Replicas int32 `json:"replicas,omitempty"`
	// Selector selects the thingamajig's pods, for the scale subresource.
	Selector string `json:"selector,omitempty"`
	// Phase is where it is in its life.
	Phase string `json:"phase,omitempty"`
}

// +kubebuilder:object:root=true
// +kubebuilder:resource:scope=Cluster,shortName=tj;thing,categories=all;gadgets,singular=thingamajig
// +kubebuilder:subresource:status
// +kubebuilder:subresource:scale:specpath=.spec.replicas,statuspath=.status.replicas,selectorpath=.status.selector
// +kubebuilder:printcolumn:name="Replicas",type=integer,JSONPath=`.spec.replicas`
// +kubebuilder:printcolumn:name="Phase",type=string,JSONPath=`.status.phase`,description="where it is in its life"
// +kubebuilder:printcolumn:name="Age",type=date,JSONPath=`.metadata.creationTimestamp`
// +kubebuilder:selectablefield:JSONPath=`.spec.mode`
// +kubebuilder:metadata:labels="app.kubernetes.io/part-of=crdforge-tests"

// Thingamajig exercises every CRD feature controller-gen supports on a version.
type Thingamajig struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   ThingamajigSpec   `json:"spec,omitempty"`
	Status ThingamajigStatus `json:"status,omitempty"`
}

// +kubebuilder:object:root=true

// ThingamajigList is a list of Thingamajigs.
type ThingamajigList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Thingamajig `json:"items"`
}
