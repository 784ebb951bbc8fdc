package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// +kubebuilder:object:root=true
// +kubebuilder:storageversion

// Recipe says how to cook a dish.
type Recipe struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec RecipeSpec `json:"spec,omitempty"`
}

// RecipeSpec is what a Recipe holds.
type RecipeSpec struct {
	// Servings the recipe makes.
	Servings int32 `json:"servings,omitempty"`
	// Steps, in order.
	Steps []string `json:"steps,omitempty"`
}

// +kubebuilder:object:root=true

// RecipeList is a list of Recipes.
type RecipeList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Recipe `json:"items"`
}
