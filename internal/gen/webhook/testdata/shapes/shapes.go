// Package shapes has a field of every shape a generated codec meets, for
// the codec's tests (codec_test.go in package webhook generates
// jsoncodec/ from it; jsoncodec/shapes_test.go runs the semantics table
// through that).
package shapes

import (
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
