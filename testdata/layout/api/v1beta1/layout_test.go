package v1beta1

import (
	"testing"
	"unsafe"

	v1 "github.com/crdforge/crdforge/testdata/layout/api/v1"
)

// TestCastsShareAndHandWrittenRuns checks what the cast means at run time:
// Plain's memory is shared with the source, and the hand-written
// conversion of HandWritten runs, inside HoldsHandWritten and in a list.
func TestCastsShareAndHandWrittenRuns(t *testing.T) {
	in := &Gadget{Spec: GadgetSpec{
		Plains:       []Plain{{Name: "p"}},
		Held:         HoldsHandWritten{Part: HandWritten{Value: "v"}},
		HandWrittens: []HandWritten{{Value: "w"}},
	}}
	var out v1.Gadget
	before := handWrittenCalls.Load()
	if err := Convert_v1beta1_Gadget_To_v1_Gadget(in, &out, nil); err != nil {
		t.Fatal(err)
	}
	if &out.Spec.Plains[0] != (*v1.Plain)(unsafe.Pointer(&in.Spec.Plains[0])) {
		t.Error("Plains was copied: a list of a struct with v1's layout must be shared")
	}
	if got := handWrittenCalls.Load() - before; got != 2 {
		t.Errorf("the hand-written conversion ran %d times, want 2", got)
	}
}
