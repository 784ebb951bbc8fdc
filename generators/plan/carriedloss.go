package plan

import (
	"go/types"
	"slices"

	"github.com/crdforge/crdforge/generators/model"
)

// A field moved out of a nested struct (a spoke's Note with
// +crdforge:hubfield=Size.Note) leaves the nested pair without a
// counterpart for it: converting the hub's Size into the spoke's alone
// loses Note, and the pair's own check says so. Converting the enclosing
// struct loses nothing there, since it carries Size.Note into Note itself.
// Were its check to call the nested one, a hub that only holds what the
// spoke gave it would look lossy, and the stash would compare (and, where
// the Go values differ in what JSON hides, write) a stash for nothing
// (random API seed 45, issue 58).

// carriedLoss reports whether every field fc's nested pair loses converting
// the value at fc.Source is a field the enclosing direction d converts
// itself, from fc.Source and that field's name. Only a pair reached by
// value or through a pointer qualifies (a move cannot go through a list or
// map), and only one whose check looks at its own fields alone: a pair
// that loses anything deeper still has its check called.
func carriedLoss(d *model.Direction, fc *model.FieldConv) bool {
	nested := movedFrom(fc.Conv)
	if nested == nil || nested.Loss != model.LossChecked || needsRoundTrip(nested) ||
		len(nested.SourceOnly) == 0 || len(nested.NestedSourceOnly) > 0 || len(nested.NilThrough) > 0 {
		return false
	}
	for _, f := range nested.Fields {
		if f.DropLoses || f.Conv.Lossy() {
			return false
		}
	}
	for _, v := range nested.SourceOnly {
		if !convertsFrom(d, fc, v) {
			return false
		}
	}
	return true
}

// movedFrom is the pair direction c converts through, when a moved field
// can reach into it: a struct by value, or a pointer to one.
func movedFrom(c *model.Conv) *model.Direction {
	switch c.Kind {
	case model.ConvPair:
		return c.Dir
	case model.ConvPointer, model.ConvAddr:
		return movedFrom(c.Elem)
	}
	return nil
}

// convertsFrom reports whether d has a field conversion, not opted out,
// from v inside the value at fc.Source.
func convertsFrom(d *model.Direction, fc *model.FieldConv, v *types.Var) bool {
	want := append(slices.Clone(fc.Source), v)
	return slices.ContainsFunc(d.Fields, func(g *model.FieldConv) bool {
		return !g.Mapping.OptOut && slices.Equal(g.Source, want)
	})
}
