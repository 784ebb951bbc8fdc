// Package common holds types both API directories use, as Cluster API's
// api/v1beta1 holds Condition. No pattern names it: it is loaded only as an
// import of each.
package common

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// Condition is one observation of a Widget.
type Condition struct {
	Type               string      `json:"type"`
	Status             string      `json:"status"`
	LastTransitionTime metav1.Time `json:"lastTransitionTime,omitempty"`
}

// DeepCopyInto copies c into out, as generated deepcopy would.
func (c *Condition) DeepCopyInto(out *Condition) {
	*out = *c
	c.LastTransitionTime.DeepCopyInto(&out.LastTransitionTime)
}

// DeepCopy copies c.
func (c *Condition) DeepCopy() *Condition {
	if c == nil {
		return nil
	}
	out := new(Condition)
	c.DeepCopyInto(out)
	return out
}
