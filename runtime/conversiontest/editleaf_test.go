package conversiontest

import (
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

type shardHub struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              shardSpec `json:"spec"`
}

type shardSpec struct {
	Shard Shard `json:"shard,omitzero"`
}

// Shard has a hub-only list beside a bool JSON always writes, and a *bool.
type Shard struct {
	Window []string `json:"window,omitzero"`
	Target bool     `json:"target_x"`
	Paused *bool    `json:"paused,omitempty"`
}

func (o *shardHub) DeepCopyObject() runtime.Object { c := *o; return &c }

// TestOnlyTheEditAllowsLeavesTheTypeWrites: an edit that sets the spoke's
// only field of a struct to false leaves the struct out when converted
// without a stash, but the hub's struct stays written when the stash
// restores a hub-only list beside it, and then writes target_x: false, as
// its Go type always does: that is the edit (apigen seed 681509805). A
// *bool written false where the edit leaves it out is not.
func TestOnlyTheEditAllowsLeavesTheTypeWrites(t *testing.T) {
	original := &shardHub{Spec: shardSpec{Shard: Shard{Window: []string{}, Target: true}}}
	before := &shardHub{Spec: shardSpec{Shard: Shard{Target: true}}}
	after := &shardHub{}
	got := &shardHub{Spec: shardSpec{Shard: Shard{Window: []string{}}}}
	if err := onlyTheEdit(original, got, before, after); err != nil {
		t.Errorf("the edit's false, written because its struct is: %v", err)
	}
	no := false
	got.Spec.Shard.Paused = &no
	err := onlyTheEdit(original, got, before, after)
	if err == nil || !strings.Contains(err.Error(), ".spec.shard.paused = false") {
		t.Errorf("a *bool the edit did not set, written false: got %v", err)
	}
}

// TestLeavesLeaveOutNullMembers: a null member reads back as its absence
// does, and the API server does not store it, so an edit's check must not
// tell them apart (apigen seed 418734688: a nil map without omitempty,
// written null by the hub object the edit made, absent from the one whose
// struct JSON left out). A null list element is still one.
func TestLeavesLeaveOutNullMembers(t *testing.T) {
	type spec struct {
		Owner map[string]string `json:"owner"`
		Items []*string         `json:"items"`
	}
	got := leaves(struct {
		Spec spec `json:"spec"`
	}{Spec: spec{Items: []*string{nil}}})
	if v, ok := got[".spec.owner"]; ok {
		t.Errorf(".spec.owner is a leaf, %s", v)
	}
	if got[".spec.items[0]"] != "null" {
		t.Errorf(".spec.items[0] = %q, want null", got[".spec.items[0]"])
	}
}
