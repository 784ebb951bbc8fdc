// Package shapes has a field of every shape a generated codec meets, for
// the codec's tests (codec_test.go in package webhook generates
// jsoncodec/ from it; jsoncodec/shapes_test.go runs the semantics table
// through that).
package shapes

import (
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// Root is a root type: type meta inlined, object meta, an embedded struct
// whose fields are promoted, and a spec.
type Root struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Embedded
	Spec Spec `json:"spec"`
}

// DeepCopyObject makes Root a runtime.Object.
func (r *Root) DeepCopyObject() runtime.Object {
	c := *r
	return &c
}

// Embedded is promoted into Root, and promotes Deeper in turn.
type Embedded struct {
	Promoted string `json:"promoted,omitempty"`
	Deeper
}

// Deeper is promoted two levels up.
type Deeper struct {
	Deep int64 `json:"deep"`
}

// Size is a named string.
type Size string

// Key is a named string map key.
type Key string

// Spec has a field of every shape.
type Spec struct {
	Name     string                       `json:"name,omitempty"`
	Count    int64                        `json:"count,omitempty"`
	Small    *int32                       `json:"small,omitempty"`
	Tiny     int8                         `json:"tiny"`
	Unsigned uint16                       `json:"unsigned,omitempty"`
	Ratio    float64                      `json:"ratio,omitempty"`
	Ratio32  float32                      `json:"ratio32"`
	On       *bool                        `json:"on,omitempty"`
	Off      bool                         `json:"off"`
	Named    Size                         `json:"named,omitempty"`
	Tags     []string                     `json:"tags"`
	Labels   map[string]string            `json:"labels,omitempty"`
	Keyed    map[Key]int                  `json:"keyed,omitempty"`
	Sized    map[Key]Size                 `json:"sized,omitempty"`
	Free     map[string]any               `json:"free,omitempty"`
	Any      any                          `json:"any,omitempty"`
	Raw      runtime.RawExtension         `json:"raw,omitempty"`
	Port     intstr.IntOrString           `json:"port,omitempty"`
	Size     *resource.Quantity           `json:"size,omitempty"`
	Sizes    map[string]resource.Quantity `json:"sizes,omitempty"`
	When     metav1.Time                  `json:"when,omitempty"`
	Until    *metav1.Time                 `json:"until,omitempty"`
	Bytes    []byte                       `json:"bytes,omitempty"`
	Items    []Item                       `json:"items,omitempty"`
	ItemPtrs []*Item                      `json:"itemPtrs,omitempty"`
	Ptr      *Item                        `json:"ptr,omitempty"`
	Optional *string                      `json:"optional"`
	Next     *Spec                        `json:"next,omitempty"`
	Array    [2]int                       `json:"array"`
	Nested   [][]string                   `json:"nested,omitempty"`
	Conflict Conflicted                   `json:"conflict"`
	Omit     Omissions                    `json:"omit"`
	Odd      Oddities                     `json:"odd"`
	Zeroer   Zeroers                      `json:"zeroer"`
	Ignored  string                       `json:"-"`
	Dash     string                       `json:"-,"`
	NoTag    string
	hidden   string
}

// Item is a struct in slices, pointers and maps.
type Item struct {
	Key   string `json:"key"`
	Value string `json:"value,omitempty"`
}

// Conflicted has two fields of one name, which encoding/json drops
// both of: the generated codec leaves the type to the reflection codec.
type Conflicted struct {
	A string `json:"a"`
	B string `json:"a"`
	C string `json:"c"`
}

// Omissions has every combination of omitempty and omitzero on the types
// whose zero test is not their zero value's (an IsZero method, on the
// value or on the pointer, through a pointer or not), and on pointers to
// types without one: encoding/json's isZero (typeFields) decides each.
type Omissions struct {
	PartE      *Part                        `json:"partE,omitempty"`
	PartZ      *Part                        `json:"partZ,omitzero"`
	PartEZ     *Part                        `json:"partEZ,omitempty,omitzero"`
	RefEZ      *corev1.LocalObjectReference `json:"refEZ,omitempty,omitzero"`
	StrZ       *string                      `json:"strZ,omitzero"`
	StrEZ      *string                      `json:"strEZ,omitempty,omitzero"`
	IntZ       *int32                       `json:"intZ,omitzero"`
	IntEZ      *int32                       `json:"intEZ,omitempty,omitzero"`
	StrValEZ   string                       `json:"strValEZ,omitempty,omitzero"`
	IntValEZ   int64                        `json:"intValEZ,omitempty,omitzero"`
	ListEZ     []string                     `json:"listEZ,omitempty,omitzero"`
	MapEZ      map[string]string            `json:"mapEZ,omitempty,omitzero"`
	AnyEZ      any                          `json:"anyEZ,omitempty,omitzero"`
	Time       metav1.Time                  `json:"time,omitzero"`
	TimeE      *metav1.Time                 `json:"timeE,omitempty"`
	TimeZ      *metav1.Time                 `json:"timeZ,omitzero"`
	TimeEZ     *metav1.Time                 `json:"timeEZ,omitempty,omitzero"`
	Quantity   resource.Quantity            `json:"quantity,omitzero"`
	QuantityZ  *resource.Quantity           `json:"quantityZ,omitzero"`
	QuantityEZ *resource.Quantity           `json:"quantityEZ,omitempty,omitzero"`
	Mode       Mode                         `json:"mode,omitzero"`
	ModeE      Mode                         `json:"modeE,omitempty"`
	ModeEZ     Mode                         `json:"modeEZ,omitempty,omitzero"`
	ModeZ      *Mode                        `json:"modeZ,omitzero"`
	ModePtrEZ  *Mode                        `json:"modePtrEZ,omitempty,omitzero"`
	Level      Level                        `json:"level,omitzero"`
	LevelEZ    Level                        `json:"levelEZ,omitempty,omitzero"`
	LevelZ     *Level                       `json:"levelZ,omitzero"`
	LevelPtrEZ *Level                       `json:"levelPtrEZ,omitempty,omitzero"`
	Span       Span                         `json:"span,omitzero"`
	SpanZ      *Span                        `json:"spanZ,omitzero"`
	Limit      Limit                        `json:"limit,omitzero"`
	LimitZ     *Limit                       `json:"limitZ,omitzero"`
	LimitPtrEZ *Limit                       `json:"limitPtrEZ,omitempty,omitzero"`
	LevelsEZ   Levels                       `json:"levelsEZ,omitempty,omitzero"`
	Deeper     **Mode                       `json:"deeper,omitzero"`
	NamedPtrZ  ModeRef                      `json:"namedPtrZ,omitzero"`
}

// Part is a struct without an IsZero method.
type Part struct {
	Name string `json:"name,omitempty"`
}

// Mode is a string whose IsZero, on the value, holds "none" zero too.
type Mode string

// IsZero reports whether m is unset or "none".
func (m Mode) IsZero() bool { return m == "" || m == "none" }

// ModeRef is a named pointer type, which has no methods.
type ModeRef *Mode

// Level is an integer whose IsZero, on the pointer, holds every negative
// level zero too.
type Level int32

// IsZero reports whether l is no level.
func (l *Level) IsZero() bool { return *l <= 0 }

// Levels is a slice whose IsZero holds one without a positive level zero.
type Levels []Level

// IsZero reports whether ls has no positive level.
func (ls Levels) IsZero() bool {
	for _, l := range ls {
		if l > 0 {
			return false
		}
	}
	return true
}

// Span is a struct whose IsZero, on the value, holds an empty span zero.
type Span struct {
	From int32 `json:"from"`
	To   int32 `json:"to"`
}

// IsZero reports whether s spans nothing.
func (s Span) IsZero() bool { return s.From == s.To }

// Limit is a struct whose IsZero, on the pointer, holds its zero value
// not zero: 0 is a limit, -1 none.
type Limit struct {
	Max int64 `json:"max"`
}

// IsZero reports whether l limits nothing.
func (l *Limit) IsZero() bool { return l.Max < 0 }

// Loose has an IsZero that is not IsZero() bool, which encoding/json does
// not call.
type Loose string

// IsZero reports whether l is zero, strictly or not.
func (l Loose) IsZero(strict bool) bool { return l == "" || !strict && l == "-" }

// Oddities has the omitzero members whose zero test is their zero
// value's though they look otherwise: a float, whose negative zero is
// empty but not zero, and an IsZero that is not IsZero() bool.
type Oddities struct {
	FloatEZ  float64 `json:"floatEZ,omitempty,omitzero"`
	Loose    Loose   `json:"loose,omitzero"`
	LoosePtr *Loose  `json:"loosePtr,omitzero"`
}

// Zeroers holds an interface with IsZero, which encoding/json calls
// through the interface when its value is no nil pointer.
type Zeroers struct {
	Z Zeroer `json:"z,omitzero"`
}

// Zeroer is an interface with IsZero.
type Zeroer interface{ IsZero() bool }
