package v1

import (
	"reflect"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// full is a Shelf with every reference set, so that a shallow copy anywhere
// shares something with it.
func full() *Shelf {
	owner := "ann"
	count := int32(3)
	s := &Shelf{
		ObjectMeta: metav1.ObjectMeta{Name: "s", Labels: map[string]string{"a": "b"}},
		Marks:      map[string]struct{}{"m": {}},
		Status:     ShelfStatus{Seen: map[string]struct{}{"x": {}}},
	}
	sp := &s.Spec
	sp.Slots = map[string]struct{}{"top": {}}
	sp.Labels = append(sp.Labels, struct {
		Key   string `json:"key"`
		Value string `json:"value"`
	}{"k", "v"})
	sp.Boxes = append(sp.Boxes, struct {
		Name  string   `json:"name"`
		Tags  []string `json:"tags,omitempty"`
		Owner *string  `json:"owner,omitempty"`
	}{Name: "b", Tags: []string{"t"}, Owner: &owner})
	sp.Location.Room = "r"
	sp.Location.Aisles = []int32{1, 2}
	sp.Size.Width = 4
	sp.Counts = map[string]struct {
		Count *int32 `json:"count,omitempty"`
	}{"c": {Count: &count}}
	sp.Grid[1].Cells = []string{"g"}
	sp.Pinned = &struct {
		Note string            `json:"note"`
		Refs map[string]string `json:"refs,omitempty"`
	}{Note: "n", Refs: map[string]string{"r": "s"}}
	at := metav1.NewTime(time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC))
	sp.Events = append(sp.Events, struct {
		At    metav1.Time `json:"at"`
		Parts PartList    `json:"parts,omitempty"`
	}{At: at, Parts: PartList{{Name: "p", Attrs: map[string]string{"k": "v"}}}})
	sp.Free = SlotSet{"f": {}}
	return s
}

// TestDeepCopyIsDeep checks that crdforge's DeepCopyInto for the types
// controller-tools cannot copy copies everything and shares nothing:
// changing every reference of the copy leaves the original as it was.
func TestDeepCopyIsDeep(t *testing.T) {
	orig := full()
	c, ok := orig.DeepCopyObject().(*Shelf)
	if !ok || !reflect.DeepEqual(c, orig) {
		t.Fatalf("the copy differs from the original:\n%+v\n%+v", c, orig)
	}
	sp := &c.Spec
	sp.Slots["new"] = struct{}{}
	sp.Labels[0].Key = "changed"
	sp.Boxes[0].Tags[0] = "changed"
	*sp.Boxes[0].Owner = "changed"
	sp.Location.Aisles[0] = 9
	*sp.Counts["c"].Count = 9
	sp.Grid[1].Cells[0] = "changed"
	sp.Pinned.Refs["r"] = "changed"
	sp.Events[0].Parts[0].Attrs["k"] = "changed"
	sp.Free["new"] = struct{}{}
	c.Marks["new"] = struct{}{}
	c.Status.Seen["new"] = struct{}{}
	if want := full(); !reflect.DeepEqual(orig, want) {
		t.Errorf("changing the copy changed the original:\n%+v\nwant\n%+v", orig, want)
	}
}

// TestDeepCopyKeepsNil checks that nil stays nil, not an empty value.
func TestDeepCopyKeepsNil(t *testing.T) {
	var empty ShelfSpec
	if c := empty.DeepCopy(); !reflect.DeepEqual(c, &empty) {
		t.Errorf("copy of an empty spec: %+v", c)
	}
	var set SlotSet
	if c := set.DeepCopy(); c != nil {
		t.Errorf("copy of a nil SlotSet: %#v", c)
	}
}
