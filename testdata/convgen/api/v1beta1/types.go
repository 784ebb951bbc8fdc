package v1beta1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// Zone is where a cluster runs.
type Zone struct {
	Region string `json:"region,omitempty"`
	Name   string `json:"name,omitempty"`
}

// Condition is v1beta1's own condition type; v1 uses metav1.Condition.
type Condition struct {
	Type    string `json:"type"`
	Status  string `json:"status"`
	Message string `json:"message,omitempty"`
}

// ClusterSpec is the desired state of a Cluster.
type ClusterSpec struct {
	// Placement is Location in v1: converted by the hand-written
	// ClusterSpec conversions below, through the generated Zone ones.
	Placement  Zone        `json:"placement,omitempty"`
	Conditions []Condition `json:"conditions,omitempty"`
	Nodes      int32       `json:"nodes,omitempty"`
}

// +kubebuilder:object:root=true

// Cluster is a test kind.
type Cluster struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              ClusterSpec `json:"spec,omitempty"`
}

// +kubebuilder:object:root=true

// ClusterList is a list of Clusters.
type ClusterList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Cluster `json:"items"`
}
