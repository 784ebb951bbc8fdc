package v2

import (
	v1 "github.com/crdforge/crdforge/generators/plan/testdata/decisions/api/v1"
	"k8s.io/apimachinery/pkg/conversion"
)

// LossSpec holds a pair for each way a direction can lose data.
type LossSpec struct {
	Kept    Kept          `json:"kept,omitempty"`
	Dropped Dropped       `json:"dropped,omitempty"`
	Pointer PointerHolder `json:"pointer,omitempty"`
	Opted   OptedHolder   `json:"opted,omitempty"`
	Written WrittenHolder `json:"written,omitempty"`
	Moved   MovedHolder   `json:"moved,omitempty"`
	Through ThroughHolder `json:"through,omitempty"`
	Whole   WholeHolder   `json:"whole,omitempty"`
	Many    ManyHolder    `json:"many,omitempty"`
	Carried CarriedHolder `json:"carried,omitempty"`
	Partly  PartlyHolder  `json:"partly,omitempty"`
}

// Kept has v1's fields, no more.
type Kept struct {
	A string `json:"a,omitempty"`
}

// Dropped has B, which v1 lacks.
type Dropped struct {
	A string `json:"a,omitempty"`
	// +crdforge:nocounterpart
	B string `json:"b,omitempty"`
}

// PointerHolder's V may be nil, v1's may not.
type PointerHolder struct {
	V *int32 `json:"v,omitempty"`
}

// OptedHolder's B is converted by hand.
type OptedHolder struct {
	A string `json:"a,omitempty"`
	// +k8s:conversion-gen=false
	B string `json:"b,omitempty"`
}

// WrittenHolder converts through hand-written functions.
type WrittenHolder struct {
	A string `json:"a,omitempty"`
}

// Convert_v2_WrittenHolder_To_v1_WrittenHolder is written by hand.
func Convert_v2_WrittenHolder_To_v1_WrittenHolder(in *WrittenHolder, out *v1.WrittenHolder, s conversion.Scope) error {
	return nil
}

// Convert_v1_WrittenHolder_To_v2_WrittenHolder is written by hand.
func Convert_v1_WrittenHolder_To_v2_WrittenHolder(in *v1.WrittenHolder, out *WrittenHolder, s conversion.Scope) error {
	return nil
}

// MovedHolder's Host is v1's Net.Host; v1's Net.Proto has no counterpart.
type MovedHolder struct {
	// +crdforge:hubfield=Net.Host
	Host string `json:"host,omitempty"`
}

// ThroughHolder's Host is v1's Net.Host, through a pointer.
type ThroughHolder struct {
	// +crdforge:hubfield=Net.Host
	Host string `json:"host,omitempty"`
}

// WholeHolder's Inner converts into v1's WholeHolder itself.
type WholeHolder struct {
	// +crdforge:hubfield=.
	Inner InnerSpec `json:"inner,omitempty"`
}

// InnerSpec has Y, which v1's WholeHolder lacks.
type InnerSpec struct {
	X string `json:"x,omitempty"`
	// +crdforge:nocounterpart
	Y string `json:"y,omitempty"`
}

// ManyHolder holds a list of Dropped.
type ManyHolder struct {
	Items []Dropped `json:"items,omitempty"`
}

// CarriedHolder's Note is v1's Size.Note, which its Size lacks: converting
// v1's Size alone loses Note, converting CarriedHolder nothing.
type CarriedHolder struct {
	Size CarriedSize `json:"size,omitempty"`
	// +crdforge:hubfield=Size.Note
	Note string `json:"note,omitempty"`
}

// CarriedSize lacks v1's Note.
type CarriedSize struct {
	Window string `json:"window,omitempty"`
}

// PartlyHolder's Note is v1's Size.Note, but v1's Size.Memo has no
// counterpart: converting PartlyHolder loses it still.
type PartlyHolder struct {
	Size *PartlySize `json:"size,omitempty"`
	// +crdforge:hubfield=Size.Note
	Note string `json:"note,omitempty"`
}

// PartlySize lacks v1's Note and Memo.
type PartlySize struct{}
