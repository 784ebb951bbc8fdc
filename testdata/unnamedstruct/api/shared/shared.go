// Package shared holds a type the versions could share, and nothing
// controller-tools copies: its deepcopy file is crdforge's alone.
// +kubebuilder:object:generate=true
package shared

// Tags is a set of tags beside a list of named pairs.
type Tags struct {
	Set   map[string]struct{} `json:"set,omitempty"`
	Pairs []struct {
		Name   string   `json:"name"`
		Values []string `json:"values,omitempty"`
	} `json:"pairs,omitempty"`
}
