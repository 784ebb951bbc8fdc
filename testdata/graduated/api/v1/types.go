// Package v1 is version v1 of rules.example.com, the storage version. Its
// rules hold admissionregistration's v1alpha1 types, which v2beta1 holds at
// v1, as Kyverno's v1 and v2beta1 policies do.
// +kubebuilder:object:generate=true
// +groupName=rules.example.com
package v1

import (
	"github.com/crdforge/crdforge/testdata/graduated/shapes/alpha"
	admissionregistrationv1alpha1 "k8s.io/api/admissionregistration/v1alpha1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// +kubebuilder:object:root=true
// +kubebuilder:storageversion

// Policy holds rules.
type Policy struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              PolicySpec `json:"spec,omitempty"`
}

// PolicySpec is the desired state of a Policy.
type PolicySpec struct {
	Rules []Rule `json:"rules,omitempty"`
}

// Rule is one rule.
type Rule struct {
	Name string `json:"name"`
	// CELPreconditions gate the rule.
	// +optional
	CELPreconditions []admissionregistrationv1alpha1.MatchCondition `json:"celPreconditions,omitempty"`
	// Variables name expressions by key.
	// +optional
	Variables map[string]admissionregistrationv1alpha1.Variable `json:"variables,omitempty"`
	// Default is the condition of a rule without preconditions.
	// +optional
	Default *admissionregistrationv1alpha1.MatchCondition `json:"default,omitempty"`
	// Params is where the parameters come from: a type that changed when it
	// graduated (its action became another package's type).
	// +optional
	Params *admissionregistrationv1alpha1.ParamRef `json:"params,omitempty"`
	// Window is when the rule applies: the same declaration in alpha and
	// beta, Go tags aside.
	// +optional
	Window *alpha.Window `json:"window,omitempty"`
	// Limit caps matches: its JSON name changed in beta, so the two are
	// different shapes.
	// +optional
	Limit alpha.Limit `json:"limit,omitempty"`
}

// +kubebuilder:object:root=true

// PolicyList is a list of Policies.
type PolicyList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Policy `json:"items"`
}
