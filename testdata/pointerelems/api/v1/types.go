package v1

import (
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// PoolSpec holds maps and a slice of pointers, whose elements a client
// cannot set to null: the API server drops a null map value and rejects a
// null item. controller-gen's deepcopy of a map of *Quantity dereferences
// every value. (It cannot copy a []*resource.Quantity at all.)
type PoolSpec struct {
	// Limits are the pool's limits by resource.
	Limits map[string]*resource.Quantity `json:"limits,omitempty"`
	// Started are when each member started.
	Started map[string]*metav1.Time `json:"started,omitempty"`
	// Members are the pool's members by name.
	Members map[string]*Member `json:"members,omitempty"`
	// Spares are members on standby.
	Spares []*Member `json:"spares,omitempty"`
	// Aliases are other names of the members.
	Aliases map[string]*string `json:"aliases,omitempty"`
	// Zone is where the pool runs; v1beta1 has no place for it.
	Zone string `json:"zone,omitempty"`
}

// Member is one member of a pool.
type Member struct {
	// Weight is its share of the work.
	Weight *resource.Quantity `json:"weight,omitempty"`
	// Reserved are what it keeps for itself, by resource.
	Reserved map[string]*resource.Quantity `json:"reserved,omitempty"`
}

// +kubebuilder:object:root=true
// +kubebuilder:storageversion

// Pool is a test kind.
type Pool struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec PoolSpec `json:"spec,omitempty"`
}

// +kubebuilder:object:root=true

// PoolList is a list of Pools.
type PoolList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Pool `json:"items"`
}
