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
