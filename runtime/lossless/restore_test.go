package lossless

import (
	"reflect"
	"testing"

	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

type item struct {
	Name  string
	Extra string // only this version has it
}

type obj struct {
	metav1.TypeMeta
	metav1.ObjectMeta
	Kept     string
	Only     string
	Count    *int32
	Items    []item
	ByName   map[string]item
	Ref      *item
	Quantity resource.Quantity
}

func TestSameDataIgnoresMetadataOnly(t *testing.T) {
	a := &obj{Kept: "x", Quantity: resource.MustParse("1Gi"), ObjectMeta: metav1.ObjectMeta{Name: "a"}}
	b := &obj{Kept: "x", Quantity: resource.MustParse("1024Mi"), ObjectMeta: metav1.ObjectMeta{Name: "b"}, TypeMeta: metav1.TypeMeta{Kind: "K"}}
	if !sameData(a, b) {
		t.Error("objects differing only in metadata and in the spelling of a quantity differ")
	}
	b.Kept = "y"
	if sameData(a, b) {
		t.Error("objects with different data are the same")
	}
}

func TestRestoreTakesSavedDataWhereNothingChanged(t *testing.T) {
	zero := int32(0)
	saved := &obj{Kept: "k", Only: "only", Count: nil,
		Items:  []item{{Name: "a", Extra: "ea"}, {Name: "b", Extra: "eb"}},
		ByName: map[string]item{"x": {Name: "x", Extra: "ex"}, "gone": {Name: "gone", Extra: "eg"}}}
	// What the round trip through a version without Only, Extra and with a
	// plain Count makes of saved:
	base := &obj{Kept: "k", Count: &zero,
		Items:  []item{{Name: "a"}, {Name: "b"}},
		ByName: map[string]item{"x": {Name: "x"}, "gone": {Name: "gone"}}}
	// The object converted back, after a user changed Kept, renamed the
	// second item, and deleted a map entry through the other version:
	out := &obj{Kept: "changed", Count: &zero, ObjectMeta: metav1.ObjectMeta{Name: "keep-me"},
		Items:  []item{{Name: "a"}, {Name: "renamed"}},
		ByName: map[string]item{"x": {Name: "x"}}}

	restore(out, base, saved)

	if out.Kept != "changed" {
		t.Errorf("Kept = %q: a change made through the other version was lost", out.Kept)
	}
	if out.Only != "only" || out.Count != nil {
		t.Errorf("Only = %q, Count = %v: stashed data not restored", out.Only, out.Count)
	}
	if out.Items[0].Extra != "ea" || out.Items[1].Name != "renamed" || out.Items[1].Extra != "eb" {
		t.Errorf("Items = %+v", out.Items)
	}
	if len(out.ByName) != 1 || out.ByName["x"].Extra != "ex" {
		t.Errorf("ByName = %+v: entries restored key by key, deleted ones stay deleted", out.ByName)
	}
	if out.Name != "keep-me" {
		t.Errorf("metadata changed: %q", out.Name)
	}
}

// TestRestoreLeavesMemoryItSharesUntouched restores into an object that
// shares its slice, map and pointer with another, as the result of a
// conversion shares them with its source: the other object must not change,
// and out must still get the merged values.
func TestRestoreLeavesMemoryItSharesUntouched(t *testing.T) {
	source := func() *obj {
		return &obj{
			Items:  []item{{Name: "a"}, {Name: "renamed"}},
			ByName: map[string]item{"x": {Name: "x"}, "y": {Name: "renamed"}},
			Ref:    &item{Name: "renamed"},
		}
	}
	src := source()
	out := &obj{Items: src.Items, ByName: src.ByName, Ref: src.Ref}
	saved := &obj{
		Items:  []item{{Name: "a", Extra: "ea"}, {Name: "b", Extra: "eb"}},
		ByName: map[string]item{"x": {Name: "x", Extra: "ex"}, "y": {Name: "y", Extra: "ey"}},
		Ref:    &item{Name: "r", Extra: "er"},
	}
	base := &obj{
		Items:  []item{{Name: "a"}, {Name: "b"}},
		ByName: map[string]item{"x": {Name: "x"}, "y": {Name: "y"}},
		Ref:    &item{Name: "r"},
	}

	restore(out, base, saved)

	if want := source(); !reflect.DeepEqual(src, want) {
		t.Errorf("restore wrote into memory out shares with another object:\n got %+v\nwant %+v", src, want)
	}
	wantOut := &obj{
		Items:  []item{{Name: "a", Extra: "ea"}, {Name: "renamed", Extra: "eb"}},
		ByName: map[string]item{"x": {Name: "x", Extra: "ex"}, "y": {Name: "renamed", Extra: "ey"}},
		Ref:    &item{Name: "renamed", Extra: "er"},
	}
	if !reflect.DeepEqual(out, wantOut) {
		t.Errorf("restored\n got %+v\nwant %+v", out, wantOut)
	}
}

// TestRestoreCopiesOnlyWhatItWrites checks that restore leaves shared what
// it does not write into: a slice none of whose elements takes stashed data
// stays the same slice.
func TestRestoreCopiesOnlyWhatItWrites(t *testing.T) {
	items := []item{{Name: "changed"}}
	out := &obj{Kept: "changed", Items: items}
	base := &obj{Kept: "k", Items: []item{{Name: "a", Extra: "x"}}}
	saved := &obj{Kept: "k", Items: []item{{Name: "a", Extra: "ea"}}}

	restore(out, base, saved)

	if &out.Items[0] != &items[0] || out.Items[0].Extra != "" {
		t.Errorf("Items = %+v: a slice restore did not write into was copied or changed", out.Items)
	}
}
