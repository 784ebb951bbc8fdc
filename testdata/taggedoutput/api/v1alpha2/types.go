// Package v1alpha2 is the hub of addons.example.com, in the shape of the
// Cluster API Operator's provider group: the older v1alpha1 was converted
// by conversion-gen, run from a versioned binary with a build tag of its
// own.
// +kubebuilder:object:generate=true
// +groupName=addons.example.com
package v1alpha2

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// +kubebuilder:object:root=true
// +kubebuilder:storageversion

// Plugin is an add-on installed into a cluster.
type Plugin struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              PluginSpec `json:"spec,omitempty"`
}

// PluginSpec says which release of the add-on to install and from where.
type PluginSpec struct {
	Version string `json:"version,omitempty"`
	Source  string `json:"source,omitempty"`
	// Patches are new in v1alpha2.
	Patches []string `json:"patches,omitempty"`
}

// +kubebuilder:object:root=true

// PluginList is a list of Plugins.
type PluginList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Plugin `json:"items"`
}
