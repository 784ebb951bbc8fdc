package v2

import (
	"context"

	v1 "github.com/crdforge/crdforge/generators/plan/testdata/decisions/api/v1"
	"k8s.io/apimachinery/pkg/conversion"
	ctrlconversion "sigs.k8s.io/controller-runtime/pkg/conversion"
)

// FallbackSpec has fields no generated code converts, and nobody has
// written anything to: the kind stays at strategy None.
type FallbackSpec struct {
	// Counts' int64s need not fit v1's int32s, and no guard checks a
	// list's elements.
	Counts []int64 `json:"counts,omitempty"`
	// Mismatch is an int here, a string in v1.
	Mismatch int `json:"mismatch,omitempty"`
}

// ForcedSpec: its kind's marker makes the missing functions a build error.
type ForcedSpec struct {
	Mismatch int `json:"mismatch,omitempty"`
}

// DeclinedSpec: its kind's marker says None is meant.
type DeclinedSpec struct {
	Mismatch int `json:"mismatch,omitempty"`
}

// WrittenSpec: its author wrote a Convert_ for a pair the kind reaches.
type WrittenSpec struct {
	Mismatch int         `json:"mismatch,omitempty"`
	Part     WrittenPart `json:"part,omitempty"`
}

// WrittenPart converts through a hand-written function.
type WrittenPart struct {
	Name string `json:"name,omitempty"`
}

// Convert_v2_WrittenPart_To_v1_WrittenPart is written by hand.
func Convert_v2_WrittenPart_To_v1_WrittenPart(in *WrittenPart, out *v1.WrittenPart, s conversion.Scope) error {
	return nil
}

// MethodsSpec: its author wrote the kind's ConvertTo and ConvertFrom.
type MethodsSpec struct {
	Mismatch int `json:"mismatch,omitempty"`
}

// ConvertTo is written by hand.
func (in *Methods) ConvertTo(dst ctrlconversion.Hub) error { return nil }

// ConvertFrom is written by hand.
func (in *Methods) ConvertFrom(src ctrlconversion.Hub) error { return nil }

// ForeignSpec: its author wrote another framework's ConvertTo.
type ForeignSpec struct {
	Mismatch int `json:"mismatch,omitempty"`
}

// ConvertTo is another framework's (knative's takes a context).
func (in *Foreign) ConvertTo(ctx context.Context, to any) error { return nil }
