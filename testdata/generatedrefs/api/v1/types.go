// Package v1 is version v1 of refs.example.com. Its hand-written code uses
// a method that only its generated deepcopy file declares, as Cluster API's
// runtime hooks do: the load, which hides generated files, cannot check it
// alone, yet the package builds.
// +kubebuilder:object:generate=true
// +groupName=refs.example.com
package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// +kubebuilder:object:root=true

// Thing is a thing.
type Thing struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Size              int32 `json:"size,omitempty"`
}

// +kubebuilder:object:root=true

// ThingList is a list of Things.
type ThingList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Thing `json:"items"`
}

// Objects are the kinds of this package, as runtime.Objects: DeepCopyObject
// is in zz_generated.deepcopy.go.
var Objects = []runtime.Object{&Thing{}, &ThingList{}}
