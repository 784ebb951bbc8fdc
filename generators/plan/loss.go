package plan

import (
	"go/ast"
	"strings"

	"sigs.k8s.io/controller-tools/pkg/loader"

	"github.com/crdforge/crdforge/generators/model"
)

// settleLoss decides every direction's Loss. Pairs refer to each other, in
// cycles too, so both questions (can it lose data; can the types alone tell)
// are fixpoints over all the pairs of a spoke.
func settleLoss(pairs []*model.TypePair) {
	lossy := map[*model.Direction]bool{}
	for changed := true; changed; {
		changed = false
		for _, tp := range pairs {
			for _, d := range tp.Directions() {
				if l := canLose(d); l != lossy[d] {
					lossy[d], changed = l, true
					d.Loss = lossFlag(l) // read by model.Conv.Lossy of pairs pointing here
				}
			}
		}
	}
	for changed := true; changed; {
		changed = false
		for _, tp := range pairs {
			for _, d := range tp.Directions() {
				if !lossy[d] || d.Loss == model.LossRoundTrip || !needsRoundTrip(d) {
					continue
				}
				d.Loss, changed = model.LossRoundTrip, true
			}
		}
	}
	for _, tp := range pairs {
		for _, d := range tp.Directions() {
			for _, f := range d.Fields {
				f.LossCarried = f.Conv.Lossy() && carriedLoss(d, f)
			}
		}
	}
}

func lossFlag(lossy bool) model.Loss {
	if lossy {
		return model.LossChecked
	}
	return model.LossNone
}

// canLose reports whether converting in direction d can drop data.
func canLose(d *model.Direction) bool {
	tp := d.Pair
	if tp.OptOut || d.Manual != nil || len(d.SourceOnly) > 0 || len(d.NestedSourceOnly) > 0 || len(d.NilThrough) > 0 {
		return true
	}
	for _, f := range d.Fields {
		// A value the destination's JSON drops is lost as a field
		// without a counterpart is (jsondrops.go).
		if f.Mapping.OptOut || f.DropLoses || f.Conv.Lossy() && !carriedLoss(d, f) {
			return true
		}
	}
	return false
}

// needsRoundTrip reports whether only converting back can tell what d lost:
// its code is hand-written or opted out, a struct converts whole into the
// enclosing one (the fields it covers are not tracked one by one), or a
// field goes through such a direction.
func needsRoundTrip(d *model.Direction) bool {
	if d.Pair.OptOut || d.Manual != nil {
		return true
	}
	for _, f := range d.Fields {
		if f.Mapping.OptOut || f.Mapping.Whole || roundTrip(f.Conv) {
			return true
		}
	}
	return false
}

// settleLossyCalls decides which LossChecked directions' lossy_ functions
// something calls (Direction.LossyCalled): both root directions of a spoke
// whose ConvertTo or ConvertFrom crdforge generates (lossless.Checked takes
// each), the directions those check through, and any that a hand-written
// ConvertTo or ConvertFrom names (it may pass one to lossless.Checked, as
// the generated ones do). Nothing else calls one: a spoke whose entry points
// are hand-written, or a pair no kind reaches (a kind's List), gets none,
// rather than unexported functions nothing uses.
func settleLossyCalls(spokes []*model.Spoke, pairs []*model.TypePair) {
	var queue []*model.Direction
	call := func(d *model.Direction) {
		if d.Loss == model.LossChecked && !d.LossyCalled {
			d.LossyCalled = true
			queue = append(queue, d)
		}
	}
	for _, s := range spokes {
		if root := s.Pairs[0]; s.Generates(root.ToHub) || s.Generates(root.ToSpoke) {
			call(root.ToHub)
			call(root.ToSpoke)
		}
	}
	named := map[*loader.Package]map[string]bool{}
	for _, tp := range pairs {
		pkg := tp.SpokeVersion.Package
		if named[pkg] == nil {
			named[pkg] = lossyNames(pkg.Syntax)
		}
		for _, d := range tp.Directions() {
			if named[pkg][d.LossyFunc] {
				call(d)
			}
		}
	}
	for len(queue) > 0 {
		d := queue[0]
		queue = queue[1:]
		for _, f := range d.Fields {
			if !f.Mapping.OptOut && !f.LossCarried {
				for _, e := range lossyCalls(f.Conv) {
					call(e)
				}
			}
		}
	}
}

// lossyCalls lists the directions whose lossy_ function the check of the
// conversion calls, as the conversion generator prints it (its lossyCode):
// through pointers, slices, arrays and map values, to a lossy pair.
func lossyCalls(c *model.Conv) []*model.Direction {
	if !c.Lossy() {
		return nil
	}
	switch c.Kind {
	case model.ConvPair:
		return []*model.Direction{c.Dir}
	case model.ConvDeref, model.ConvPointer, model.ConvAddr, model.ConvSlice, model.ConvArray, model.ConvMap:
		return lossyCalls(c.Elem)
	}
	return nil
}

// lossyNames is the set of lossy_ identifiers that files use. The load
// leaves generated files out, so these are the package's own; of their
// function bodies, it keeps those of ConvertTo and ConvertFrom alone.
func lossyNames(files []*ast.File) map[string]bool {
	out := map[string]bool{}
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok && strings.HasPrefix(id.Name, "lossy_") {
				out[id.Name] = true
			}
			return true
		})
	}
	return out
}
