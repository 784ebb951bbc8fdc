package plan

import (
	"go/types"

	"github.com/crdforge/crdforge/generators/model"
	"github.com/crdforge/crdforge/internal/diag"
	"github.com/crdforge/crdforge/markers"
)

// A spoke field with no counterpart by name in the hub converts to nothing
// in a generated conversion, and reportNoCounterpart warns at it. Once the
// author writes the Convert_ that generate asked for (for another field of
// the same struct), that function takes over the whole struct: it may
// carry the field somewhere (hostPort into host and port), or forget it,
// and then the stash alone keeps the value while the hub's clients read
// nothing, with every round trip still passing. crdforge cannot read the
// hand-written code, so such a field is a warning at the field, and the
// generated tests check that the field changes the hub
// (conversion.printReachTests).

// settleByHand lists, for every direction to the hub whose Convert_ is
// hand-written and that a generated entry point needs, the spoke fields
// with no counterpart by name that no +crdforge:nocounterpart
// acknowledges, and warns at each.
func (p *pairer) settleByHand() {
	if p.diags.HasErrors() {
		return // as reportNoCounterpart: a bad marker leaves fields unpaired
	}
	acked := p.acknowledgedBoth()
	for _, tp := range p.order {
		d := tp.ToHub
		if d.Manual == nil || !d.Needed {
			continue
		}
		d.ByHand = nil
		for _, f := range d.SourceOnly {
			if _, ok := acked[f.Pos()]; ok || !f.Exported() {
				continue
			}
			d.ByHand = append(d.ByHand, f)
			p.warnByHand(tp, f)
		}
	}
}

// warnByHand warns that f, a field of tp's spoke, has no counterpart by
// name in the hub, and that only the hand-written Convert_ can carry it.
func (p *pairer) warnByHand(tp *model.TypePair, f *types.Var) {
	d := tp.ToHub
	w := p.diags.WarnClassf(diag.ClassNoCounterpart, f.Pos(), "%s %s.%s has no counterpart by name in %s",
		d.FromVersion.Name, tp.Spoke.Obj().Name(), f.Name(), d.ToVersion.Name).
		Note("%s is hand-written, and crdforge cannot see whether it sets a %s field from it; if it does not, %s clients read nothing and only the stash keeps the value", d.Func, d.ToVersion.Name, d.ToVersion.Name).
		Note("%s checks that it changes the %s object", d.ReachTestName(), d.ToVersion.Name)
	if path := p.bestHubPath(tp, f); path != "" {
		w.Help("if it is %s's %s, mark it +%s=%s: %s, which %s calls first, then converts it", d.ToVersion.Name, path, markers.HubFieldName, path, d.AutoFunc, d.Func)
	} else {
		w.Help("set the %s field it belongs in from in.%s in %s, or name that field with +%s", d.ToVersion.Name, f.Name(), d.Func, markers.HubFieldName)
	}
	w.Help("if it lives in %s only, mark it +%s", d.FromVersion.Name, markers.NoCounterpartName)
}
