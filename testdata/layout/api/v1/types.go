package v1

import (
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Plain has v1beta1's Plain's fields, names, tags and order.
type Plain struct {
	Name   string             `json:"name"`
	Weight *resource.Quantity `json:"weight,omitempty"`
	Tags   map[string]string  `json:"tags,omitempty"`
}

// Outer holds Plains.
type Outer struct {
	Inner Plain   `json:"inner"`
	Items []Plain `json:"items,omitempty"`
}

// HandWritten is v1beta1's HandWritten.
type HandWritten struct {
	Value string `json:"value"`
}

// HoldsHandWritten is v1beta1's HoldsHandWritten.
type HoldsHandWritten struct {
	Part HandWritten `json:"part"`
}

// Renamed calls Title what v1beta1 calls Label.
type Renamed struct {
	Title string `json:"title"`
}

// Mode allows fewer values than v1beta1's.
// +kubebuilder:validation:Enum=A;B
type Mode string

// Narrowed is v1beta1's Narrowed, with the narrower Mode.
type Narrowed struct {
	// +optional
	Mode Mode `json:"mode,omitempty"`
}

// Legacy has Hint where v1beta1's has Note: one memory layout, other data.
type Legacy struct {
	Name string `json:"name"`
	// +optional
	// +crdforge:nocounterpart
	Hint string `json:"hint,omitempty"`
}

// Reordered has v1beta1's fields in another order.
type Reordered struct {
	Second string `json:"second"`
	First  string `json:"first"`
}

// Swapped has v1beta1's fields, names and tags.
type Swapped struct {
	First  string `json:"first"`
	Second string `json:"second"`
}

// Retagged names Size differently in JSON.
type Retagged struct {
	Size string `json:"sizeName"`
}

// Resized holds Count in an int64.
type Resized struct {
	Count int64 `json:"count"`
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
// +kubebuilder:storageversion

// Gadget is the hub.
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
