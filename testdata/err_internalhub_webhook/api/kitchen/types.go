package kitchen

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// Recipe is the internal form of every served Recipe.
type Recipe struct {
	metav1.TypeMeta
	metav1.ObjectMeta

	Spec RecipeSpec
}

// RecipeSpec holds the steps in the one form code works with.
type RecipeSpec struct {
	Servings int32
	Steps    []string
}

// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// RecipeList is a list of Recipes.
type RecipeList struct {
	metav1.TypeMeta
	metav1.ListMeta
	Items []Recipe
}
