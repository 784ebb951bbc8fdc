// Package v1 is the hub of peers.example.com. Like Karpenter's, each
// version's validation keeps its own unexported helper type, of the same
// name and layout in both: no conversion can name the other's.
// +kubebuilder:object:generate=true
// +groupName=peers.example.com
package v1

import (
	"fmt"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// +kubebuilder:object:root=true
// +kubebuilder:storageversion

// Rack is a rack of shelves.
type Rack struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec RackSpec `json:"spec,omitempty"`
}

// RackSpec is what a Rack should be.
type RackSpec struct {
	// Shelves are the shelves' labels, each once.
	Shelves []Shelf `json:"shelves,omitempty"`
}

// Shelf is one shelf.
type Shelf struct {
	Label string `json:"label"`
	Side  string `json:"side,omitempty"`
}

// +kubebuilder:object:root=true

// RackList is a list of Racks.
type RackList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Rack `json:"items"`
}

// labelSide identifies a shelf, for validation only.
type labelSide struct {
	Label, Side string
}

// Validate reports a shelf listed twice.
func (s *RackSpec) Validate() error {
	seen := map[labelSide]bool{}
	for _, sh := range s.Shelves {
		k := labelSide{Label: sh.Label, Side: sh.Side}
		if seen[k] {
			return fmt.Errorf("shelf %s/%s listed twice", sh.Label, sh.Side)
		}
		seen[k] = true
	}
	return nil
}
