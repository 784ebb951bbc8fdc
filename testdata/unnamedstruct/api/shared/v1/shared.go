// Package v1 holds a type the versions could share, and nothing
// controller-tools copies: its deepcopy file is crdforge's alone. It names
// meta/v1 by its package name, v1, as its own: the generated file must call
// it something else.
// +kubebuilder:object:generate=true
package v1

import "k8s.io/apimachinery/pkg/apis/meta/v1"

// Tags is a set of tags beside a list of named pairs.
type Tags struct {
	Set   map[string]struct{} `json:"set,omitempty"`
	Pairs []struct {
		Name   string   `json:"name"`
		Values []string `json:"values,omitempty"`
		Since  *v1.Time `json:"since,omitempty"`
	} `json:"pairs,omitempty"`
}
