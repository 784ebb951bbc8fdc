package plan

import (
	"go/types"

	"sigs.k8s.io/controller-tools/pkg/loader"

	"github.com/crdforge/crdforge/generators/model"
)

// A spoke's field may convert between two structs that are not both of its
// spoke and hub packages: the versions of a group share one version's type
// (Flux's notification API: the v1beta2 and v1beta3 Alerts hold v1's
// CrossNamespaceObjectReference), so converting v1beta1's Alert to v1beta3
// converts v1beta1's reference into v1's. conversion-gen converts such a
// field with any Convert_ function its peer packages have, generated ones
// included; and crdforge generates that very function when another kind
// pairs those two packages (the Receiver of v1beta1 and v1). Such a field
// calls it, as it would call a hand-written one: generated functions are
// not in the load (it skips generated files), so they are found among the
// pairs instead.

// useGenerated classifies again, able to call the generated Convert_ of
// other pairers, every field conversion that needs a hand-written
// function, and keeps the new conversion when it no longer needs one. Using
// one pairer's function can make another pairer's complete, whose function
// a third pairer's field needs: it repeats until nothing changes, pairers
// and fields in order, so that the result is deterministic.
func (pl *planner) useGenerated(order []*pairer) {
	byPackages := map[[2]string]*pairer{}
	for _, p := range order {
		byPackages[[2]string{p.spoke.Package.PkgPath, p.hub.Package.PkgPath}] = p
	}
	if len(byPackages) < 2 {
		return // no other pairer to call
	}
	for _, p := range order {
		p.generated = pl.generatedFunc(p, byPackages)
	}
	for changed := true; changed; {
		changed = false
		for _, p := range order {
			for _, tp := range p.order {
				if tp.OptOut {
					continue // no autoConvert_: its author converts
				}
				for _, d := range tp.Directions() {
					for _, fc := range d.Fields {
						if manual, _ := fc.Conv.Manual(); manual && !fc.Mapping.OptOut && p.reclassify(d, fc) {
							changed = true
						}
					}
				}
			}
		}
	}
}

// reclassify classifies a field conversion again, with what the pairer
// settled since (checks of narrowing integers, conversion-gen's shapes
// under a hand-written Convert_) applied again, and keeps the result if it
// needs no hand-written function.
func (p *pairer) reclassify(d *model.Direction, fc *model.FieldConv) bool {
	old, oldCheck := fc.Conv, fc.Guard
	fc.Conv, fc.Guard = p.conv(endType(fc.Source, d.From), endType(fc.Dest, d.To)), nil
	p.narrowField(d, fc, p.pl.opts.Conversions)
	if d.Manual != nil {
		asConversionGen(d, p.metav1Funcs)
	}
	if manual, _ := fc.Conv.Manual(); manual {
		fc.Conv, fc.Guard = old, oldCheck
		return false
	}
	return true
}

// endType is the type at the end of a field path from a struct: the struct
// itself for an empty path (a Whole mapping).
func endType(path []*types.Var, whole *types.Named) types.Type {
	if len(path) == 0 {
		return whole
	}
	return path[len(path)-1].Type()
}

// generatedFunc finds, for caller's conversions, the direction of another
// pairer's pair that converts from into to: a pairer whose spoke and hub
// packages are the two structs' (either way round), holding the pair
// (reached by its own kinds' fields, or paired by name), whose Convert_
// will be generated, and which the caller's package can call.
func (pl *planner) generatedFunc(caller *pairer, byPackages map[[2]string]*pairer) func(from, to *types.Named) *model.Direction {
	return func(from, to *types.Named) *model.Direction {
		fromPkg, toPkg := from.Obj().Pkg(), to.Obj().Pkg()
		if fromPkg == nil || toPkg == nil {
			return nil
		}
		for _, c := range []struct {
			packages [2]string
			pair     [2]*types.TypeName
			toHub    bool
		}{
			{[2]string{fromPkg.Path(), toPkg.Path()}, [2]*types.TypeName{from.Obj(), to.Obj()}, true},
			{[2]string{toPkg.Path(), fromPkg.Path()}, [2]*types.TypeName{to.Obj(), from.Obj()}, false},
		} {
			other := byPackages[c.packages]
			if other == nil || other == caller {
				continue
			}
			tp := other.pairs[c.pair]
			if tp == nil || !pl.callable(caller.spoke.Package, other.spoke.Package) {
				continue
			}
			d := tp.ToSpoke
			if c.toHub {
				d = tp.ToHub
			}
			if complete(d) {
				return d
			}
		}
		return nil
	}
}

// callable reports whether the conversion file of package from can call
// the generated functions of package home (which its pairer's spoke
// package holds): home is from itself, or one that from's own files import,
// so that calling it makes no import cycle and from's file has an alias for
// it; and crdforge writes home's conversion file (conversion-gen writes
// that of a package left to it).
func (pl *planner) callable(from, home *loader.Package) bool {
	return (home == from || from.Imports()[home.PkgPath] != nil) && !pl.LeftToConversionGen(home)
}

// complete reports whether d's Convert_ exists once generated code is in,
// with nothing left to write by hand in it or in the generated functions
// it calls: then calling it needs nothing the author has not written. A
// hand-written Convert_ on the way is its author's, complete as it is.
func complete(d *model.Direction) bool {
	seen := map[*model.Direction]bool{d: true}
	queue := []*model.Direction{d}
	for len(queue) > 0 {
		e := queue[0]
		queue = queue[1:]
		if e.Manual != nil {
			continue
		}
		if fields, _ := e.NeedsManual(); e.Pair.OptOut || e.WrongSignature || len(fields) > 0 {
			return false
		}
		for _, c := range calls(e) {
			if !seen[c] {
				seen[c] = true
				queue = append(queue, c)
			}
		}
	}
	return true
}
