// Package v1alpha1 is the older version of addons.example.com. Its
// zz_generated.conversion.go is conversion-gen's, from before Source was
// renamed: its build tag is not the one the load leaves out, and its header
// names the binary it ran from, so only its header says crdforge replaces
// it.
// +kubebuilder:object:generate=true
// +groupName=addons.example.com
// +k8s:conversion-gen=github.com/crdforge/crdforge/testdata/taggedoutput/api/v1alpha2
package v1alpha1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// +kubebuilder:object:root=true

// Plugin is an add-on installed into a cluster.
type Plugin struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              PluginSpec `json:"spec,omitempty"`
}

// PluginSpec says which release of the add-on to install and from where.
type PluginSpec struct {
	Version string `json:"version,omitempty"`
	// Source was FetchURL when conversion-gen last ran.
	Source string `json:"source,omitempty"`
}

// +kubebuilder:object:root=true

// PluginList is a list of Plugins.
type PluginList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Plugin `json:"items"`
}
