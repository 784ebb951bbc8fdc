package v1beta1

import (
	"sync/atomic"

	v1 "github.com/crdforge/crdforge/testdata/layout/api/v1"
	"k8s.io/apimachinery/pkg/conversion"
)

// handWrittenCalls counts the calls of the hand-written conversion.
var handWrittenCalls atomic.Int64

// Convert_v1beta1_HandWritten_To_v1_HandWritten converts as the generated
// function would, and counts: whatever a hand-written function does, a
// conversion of HandWritten, alone or inside another struct, must call it.
func Convert_v1beta1_HandWritten_To_v1_HandWritten(in *HandWritten, out *v1.HandWritten, s conversion.Scope) error {
	handWrittenCalls.Add(1)
	return autoConvert_v1beta1_HandWritten_To_v1_HandWritten(in, out, s)
}
