package v1beta1

import (
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Each struct below pairs with v1's struct of the same name. Plain and
// Outer share v1's memory layout and convert by a cast; every other one
// differs from its v1 peer in one way that rules the cast out.

// Plain has v1's Plain's fields, names, tags and order: cast.
type Plain struct {
	Name   string             `json:"name"`
	Weight *resource.Quantity `json:"weight,omitempty"`
	Tags   map[string]string  `json:"tags,omitempty"`
}

// Outer holds Plains: cast, as its fields are.
type Outer struct {
	Inner Plain   `json:"inner"`
	Items []Plain `json:"items,omitempty"`
}

// HandWritten has v1's layout, but converts to v1 through a hand-written
// function (conversion.go), which must run: no cast either way.
type HandWritten struct {
	Value string `json:"value"`
}

// HoldsHandWritten holds a HandWritten: no cast.
type HoldsHandWritten struct {
	Part HandWritten `json:"part"`
}

// Renamed's Label is v1's Title, same place, same tag: no cast.
type Renamed struct {
	// +crdforge:hubfield=Title
	Label string `json:"title"`
}

// Mode allows C, which v1 does not.
// +kubebuilder:validation:Enum=A;B;C
type Mode string

// Narrowed's Mode is checked on the way to v1, the storage version: no cast
// to v1; from v1, a cast.
type Narrowed struct {
	// +optional
	Mode Mode `json:"mode,omitempty"`
}

// Legacy has Note where v1's has Hint, of the same type: one memory layout,
// but Note is stashed, not written into Hint: no cast (conversion-gen casts
// a []Legacy, as it compares layouts only).
type Legacy struct {
	Name string `json:"name"`
	// +optional
	// +crdforge:nocounterpart
	Note string `json:"note,omitempty"`
}

// Reordered has v1's fields in another order: no cast.
type Reordered struct {
	First  string `json:"first"`
	Second string `json:"second"`
}

// Swapped has v1's fields, names and tags, but each converts into the
// other: no cast.
type Swapped struct {
	// +crdforge:hubfield=Second
	First string `json:"first"`
	// +crdforge:hubfield=First
	Second string `json:"second"`
}

// Retagged names Size differently in JSON: no cast.
type Retagged struct {
	Size string `json:"size"`
}

// Resized holds Count in an int32, v1 in an int64: no cast.
type Resized struct {
	Count int32 `json:"count"`
}

// GadgetSpec holds one of each.
type GadgetSpec struct {
	Plain        Plain            `json:"plain"`
	Plains       []Plain          `json:"plains,omitempty"`
	ByName       map[string]Plain `json:"byName,omitempty"`
	Ptr          *Plain           `json:"ptr,omitempty"`
	Outer        Outer            `json:"outer"`
	Held         HoldsHandWritten `json:"held"`
	HandWrittens []HandWritten    `json:"handWrittens,omitempty"`
	Renamed      []Renamed        `json:"renamed,omitempty"`
	Narrowed     []Narrowed       `json:"narrowed,omitempty"`
	Legacy       []Legacy         `json:"legacy,omitempty"`
	Reordered    []Reordered      `json:"reordered,omitempty"`
	Swapped      []Swapped        `json:"swapped,omitempty"`
	Retagged     []Retagged       `json:"retagged,omitempty"`
	Resized      []Resized        `json:"resized,omitempty"`
}

// +kubebuilder:object:root=true

// Gadget is the spoke.
type Gadget struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              GadgetSpec `json:"spec,omitempty"`
}

// +kubebuilder:object:root=true

// GadgetList is a list of Gadgets.
type GadgetList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Gadget `json:"items"`
}
