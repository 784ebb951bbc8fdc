package plan_test

import (
	"testing"

	"github.com/crdforge/crdforge/generators/model"
)

// layoutModel builds the model of the layout golden case: v1 is the hub,
// v1beta1 a spoke with a struct for every reason to cast or not.
var layoutModel = modelOnce("../../testdata/layout")

// TestSameLayout checks which pairs convert by a cast through
// unsafe.Pointer, each way, and that each reason not to holds.
func TestSameLayout(t *testing.T) {
	m, err := layoutModel()
	if err != nil {
		t.Fatal(err)
	}
	pairs := map[string]*model.TypePair{}
	for _, g := range m.Groups {
		for _, k := range g.Kinds {
			for _, s := range k.Spokes {
				for _, tp := range s.Pairs {
					pairs[tp.Spoke.Obj().Name()] = tp
				}
			}
		}
	}
	tests := []struct {
		pair           string
		toHub, toSpoke bool
		because        string
	}{
		{"Plain", true, true, "same fields, names, tags and order; a pointer, a map"},
		{"Outer", true, true, "its fields are a pair with one layout, and a list of it"},
		{"HandWritten", false, false, "a hand-written Convert_ to v1 must run; the other way too, as conversion-gen has it"},
		{"HoldsHandWritten", false, false, "it holds a struct with a hand-written conversion"},
		{"Renamed", false, false, "Label is v1's Title: same place and tag, another name"},
		{"Narrowed", false, true, "Mode is checked on the way to v1, the storage version, only"},
		{"Legacy", false, false, "Note has no counterpart, though v1's Hint sits in the same place with the same type"},
		{"Reordered", false, false, "the same fields in another order"},
		{"Swapped", false, false, "same names and tags, but each field converts into the other"},
		{"Retagged", false, false, "another JSON name"},
		{"Resized", false, false, "an int32 is not an int64 (and v1 to v1beta1 is checked)"},
		{"GadgetSpec", false, false, "it holds structs that do not share a layout"},
		{"Gadget", false, false, "a kind's root: TypeMeta is the caller's"},
	}
	for _, tt := range tests {
		tp := pairs[tt.pair]
		if tp == nil {
			t.Errorf("no pair %s", tt.pair)
			continue
		}
		if tp.ToHub.SameLayout != tt.toHub || tp.ToSpoke.SameLayout != tt.toSpoke {
			t.Errorf("%s: SameLayout to the hub %v, to the spoke %v; want %v, %v: %s",
				tt.pair, tp.ToHub.SameLayout, tp.ToSpoke.SameLayout, tt.toHub, tt.toSpoke, tt.because)
		}
	}
}

// TestSameLayoutNeverLoses checks, over every pair of the test models, that
// a direction read through a cast is one that loses nothing: the cast
// skips the checks and stashes that a lossy direction needs.
func TestSameLayoutNeverLoses(t *testing.T) {
	for name, build := range map[string]func() (*model.Model, error){"layout": layoutModel, "pairs": pairsModel} {
		m, err := build()
		if err != nil {
			t.Fatal(err)
		}
		casts := 0
		for _, tps := range m.Pairs {
			for _, tp := range tps {
				for _, d := range tp.Directions() {
					if !d.SameLayout {
						continue
					}
					casts++
					if d.Lossy() || d.Manual != nil {
						t.Errorf("%s: %s %s shares a layout but loses data or is hand-written", name, d.Describe(), d.From.Obj().Name())
					}
				}
			}
		}
		if casts == 0 && name == "layout" {
			t.Errorf("%s: no direction shares a layout", name)
		}
	}
}
