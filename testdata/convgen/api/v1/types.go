package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// Zone is where a cluster runs.
type Zone struct {
	Region string `json:"region,omitempty"`
	Name   string `json:"name,omitempty"`
}

// ClusterSpec is the desired state of a Cluster.
type ClusterSpec struct {
	// Location was Placement in v1beta1.
	Location   Zone               `json:"location,omitempty"`
	Conditions []metav1.Condition `json:"conditions,omitempty"`
	Nodes      int32              `json:"nodes,omitempty"`
}

// +kubebuilder:object:root=true
// +kubebuilder:storageversion

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
