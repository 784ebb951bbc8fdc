// Package v1beta1 contains the v1beta1 version of the example.com API group.
// +kubebuilder:object:generate=true
// +groupName=example.com
package v1beta1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

var (
	// GroupVersion is the group and version of this package's types.
	GroupVersion = schema.GroupVersion{Group: "example.com", Version: "v1beta1"}

	// SchemeBuilder registers this package's types with a scheme. It is
	// apimachinery's builder, not controller-runtime's (deprecated): an API
	// package depends on apimachinery alone, so that anyone can import it.
	SchemeBuilder = runtime.NewSchemeBuilder(addKnownTypes)

	// AddToScheme adds this package's types to a scheme.
	AddToScheme = SchemeBuilder.AddToScheme
)

// addKnownTypes registers this package's kinds under GroupVersion, with the
// meta/v1 types that every group version serves (ListOptions, Status, ...).
func addKnownTypes(s *runtime.Scheme) error {
	s.AddKnownTypes(GroupVersion, &CronTab{}, &CronTabList{})
	metav1.AddToGroupVersion(s, GroupVersion)
	return nil
}
