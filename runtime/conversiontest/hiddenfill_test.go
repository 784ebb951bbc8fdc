package conversiontest

import (
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/randfill"
)

// hiddenObject holds the two values JSON cannot tell from zero that a
// filler may draw: an inline embedded pointer to an empty struct, and a
// Quantity of "0" in an omitzero field.
type hiddenObject struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	*HiddenEmpty      `json:",inline"`
	Ports             *resource.Quantity `json:"ports,omitempty,omitzero"`
}

type HiddenEmpty struct{}

func (o *hiddenObject) DeepCopyObject() runtime.Object {
	c := *o
	return &c
}

// TestFilledObjectsAreAsJSONReadsThem: the original of a round trip is an
// object a client can send, so neither value above is drawn: converted,
// each may write what its JSON did not (a struct field JSON always writes,
// a "0" the other version's field writes), and the way back then stashes
// it, in an annotation the original read from JSON never gets (apigen
// seeds 174312854 and 71).
func TestFilledObjectsAreAsJSONReadsThem(t *testing.T) {
	zero := func(q *resource.Quantity, _ randfill.Continue) { *q = resource.MustParse("0") }
	f, err := newFiller(time.Now().UnixNano(), []any{zero}, &hiddenObject{})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 300; i++ {
		var o hiddenObject
		if err := fill(f, &o); err != nil {
			t.Fatal(err)
		}
		if o.HiddenEmpty != nil {
			t.Fatalf("iteration %d: an embedded pointer JSON shows nothing of is not nil", i)
		}
		if o.Ports != nil && o.Ports.IsZero() {
			t.Fatalf("iteration %d: an omitzero Quantity JSON leaves out is %q, not nil", i, o.Ports)
		}
	}
}
