package v1

import (
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// GaugeSpec holds pointers in slices, maps and pointers, to types with
// deepcopy methods of their own (another package's, written by hand or
// generated, and this package's), and to types assigned whole.
type GaugeSpec struct {
	// Quantities are pointers to a type whose DeepCopy has a value receiver.
	// +optional
	Quantities []*resource.Quantity `json:"quantities,omitempty"`
	// Times are pointers to a type whose DeepCopyInto is written by hand.
	// +optional
	Times []*metav1.Time `json:"times,omitempty"`
	// Ints are pointers to a type assigned whole.
	// +optional
	Ints []*intstr.IntOrString `json:"ints,omitempty"`
	// Items are pointers to a struct of this package.
	// +optional
	Items []*Item `json:"items,omitempty"`
	// Stamps are pointers to a struct of this package with a hand-written
	// DeepCopyInto.
	// +optional
	Stamps []*Stamp `json:"stamps,omitempty"`

	// QuantityMap holds pointers to quantities.
	// +optional
	QuantityMap map[string]*resource.Quantity `json:"quantityMap,omitempty"`
	// TimeMap holds pointers to times.
	// +optional
	TimeMap map[string]*metav1.Time `json:"timeMap,omitempty"`
	// IntMap holds pointers to ints or strings.
	// +optional
	IntMap map[string]*intstr.IntOrString `json:"intMap,omitempty"`
	// ItemMap holds pointers to items.
	// +optional
	ItemMap map[string]*Item `json:"itemMap,omitempty"`
	// StampMap holds pointers to stamps.
	// +optional
	StampMap map[string]*Stamp `json:"stampMap,omitempty"`

	// QuantityRef points at a pointer to a quantity.
	// +optional
	QuantityRef **resource.Quantity `json:"quantityRef,omitempty"`
	// TimeRef points at a pointer to a time.
	// +optional
	TimeRef **metav1.Time `json:"timeRef,omitempty"`
	// ItemRef points at a pointer to an item.
	// +optional
	ItemRef **Item `json:"itemRef,omitempty"`
	// StampRef points at a pointer to a stamp.
	// +optional
	StampRef **Stamp `json:"stampRef,omitempty"`

	// QuantityGrid is a slice of slices of pointers.
	// +optional
	QuantityGrid [][]*resource.Quantity `json:"quantityGrid,omitempty"`
	// QuantityLists is a map of slices of pointers.
	// +optional
	QuantityLists map[string][]*resource.Quantity `json:"quantityLists,omitempty"`
	// QuantityRefs points at a slice of pointers.
	// +optional
	QuantityRefs *[]*resource.Quantity `json:"quantityRefs,omitempty"`
	// TimeMaps is a slice of maps of pointers.
	// +optional
	TimeMaps []map[string]*metav1.Time `json:"timeMaps,omitempty"`

	// Amounts is a named slice of pointers.
	// +optional
	Amounts Amounts `json:"amounts,omitempty"`
	// AmountMap is a named map of pointers.
	// +optional
	AmountMap AmountMap `json:"amountMap,omitempty"`

	// Quantity, Limits and Start are the shapes controller-gen copies
	// right.
	// +optional
	Quantity *resource.Quantity `json:"quantity,omitempty"`
	// +optional
	Limits []resource.Quantity `json:"limits,omitempty"`
	// +optional
	Requests map[string]resource.Quantity `json:"requests,omitempty"`
	// +optional
	Start *metav1.Time `json:"start,omitempty"`
}

// Amounts is a named slice of pointers to quantities.
type Amounts []*resource.Quantity

// AmountMap is a named map of pointers to quantities.
type AmountMap map[string]*resource.Quantity

// Item is a plain struct with a slice.
type Item struct {
	Name string   `json:"name"`
	Tags []string `json:"tags,omitempty"`
}

// Stamp is a struct whose DeepCopyInto is written by hand (stamp.go).
type Stamp struct {
	Note string   `json:"note"`
	Refs []string `json:"refs,omitempty"`
}

// +kubebuilder:object:root=true
// +kubebuilder:storageversion

// Gauge is a test kind.
type Gauge struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec GaugeSpec `json:"spec,omitempty"`
}

// +kubebuilder:object:root=true

// GaugeList is a list of Gauges.
type GaugeList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Gauge `json:"items"`
}
