package v1beta1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// QueueSpec is a queue's desired state.
type QueueSpec struct {
	// Strategy is the ordering, as kueue's QueueingStrategy; its enum
	// refuses "", so nothing is reported.
	// +kubebuilder:default=BestEffortFIFO
	// +kubebuilder:validation:Enum=StrictFIFO;BestEffortFIFO
	Strategy string `json:"strategy,omitempty"`
	// PortName is as prometheus-operator's: "" passes its schema, and
	// conversion turns it into "web". The project file's
	// allow-dropped-zeros makes that a warning.
	// +kubebuilder:default=web
	PortName string `json:"portName,omitempty"`
}

// +kubebuilder:object:root=true

// Queue is a queue.
type Queue struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec QueueSpec `json:"spec,omitempty"`
}

// +kubebuilder:object:root=true

// QueueList is a list of Queues.
type QueueList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Queue `json:"items"`
}
