package v1beta1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// SchemeGroupVersion is the group and version of this package.
var SchemeGroupVersion = schema.GroupVersion{Group: "kitchen.example.com", Version: "v1beta1"}

var (
	// localSchemeBuilder collects what this package adds to a scheme;
	// conversion-gen's output registers its functions with it.
	localSchemeBuilder = runtime.NewSchemeBuilder(addKnownTypes)
	// AddToScheme adds this version's types and conversions to a scheme.
	AddToScheme = localSchemeBuilder.AddToScheme
)

func addKnownTypes(s *runtime.Scheme) error {
	s.AddKnownTypes(SchemeGroupVersion, &Recipe{}, &RecipeList{})
	metav1.AddToGroupVersion(s, SchemeGroupVersion)
	return nil
}
