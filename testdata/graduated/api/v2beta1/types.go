// Package v2beta1 is version v2beta1 of rules.example.com. Its rules hold
// admissionregistration's v1 types where v1 holds v1alpha1's: the same
// declarations twice, which convert as they are, except ParamRef.
// +kubebuilder:object:generate=true
// +groupName=rules.example.com
package v2beta1

import (
	"github.com/crdforge/crdforge/testdata/graduated/shapes/beta"
	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// +kubebuilder:object:root=true

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
	CELPreconditions []admissionregistrationv1.MatchCondition `json:"celPreconditions,omitempty"`
	// Variables name expressions by key.
	// +optional
	Variables map[string]admissionregistrationv1.Variable `json:"variables,omitempty"`
	// Default is the condition of a rule without preconditions.
	// +optional
	Default *admissionregistrationv1.MatchCondition `json:"default,omitempty"`
	// Params is where the parameters come from.
	// +optional
	Params *admissionregistrationv1.ParamRef `json:"params,omitempty"`
	// Window is when the rule applies.
	// +optional
	Window *beta.Window `json:"window,omitempty"`
	// Limit caps matches.
	// +optional
	Limit beta.Limit `json:"limit,omitempty"`
}

// +kubebuilder:object:root=true

// PolicyList is a list of Policies.
type PolicyList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Policy `json:"items"`
}
