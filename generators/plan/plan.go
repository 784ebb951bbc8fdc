// Package plan is crdforge's conversion planning: given the model's kinds
// and versions, it pairs each spoke's structs with its hub's, decides how
// every field converts each way (an assignment, a same-layout copy, a
// generated or hand-written function), what each direction can lose and how
// generated code finds out, which conversions narrow, which functions are
// generated, and the strategy of a kind whose conversion cannot be generated
// yet. It writes its decisions into the model's types (Spoke, TypePair,
// Direction, FieldConv, Conv), which generators read; the model itself
// knows nothing of how they were settled.
package plan

import (
	"go/types"
	"slices"

	"sigs.k8s.io/controller-tools/pkg/crd"
	"sigs.k8s.io/controller-tools/pkg/loader"

	"github.com/crdforge/crdforge/generators/model"
	"github.com/crdforge/crdforge/internal/diag"
)

// Facts are what the model's builder knows of the load that planning asks
// and the model does not hold (model.Builder answers them): whether a type
// has, or will have, DeepCopyInto, which decides whether a shared type
// copies; and what a package imports, which decides whose Convert_
// functions a spoke may call.
type Facts interface {
	HasDeepCopyInto(t types.Type) bool
	Imports(pkg *loader.Package) map[string]bool
}

// planner holds what planning caches while it runs, dropped when it
// returns: the model gets the decisions only.
type planner struct {
	*model.Model
	facts Facts
	opts  model.Options
	// versionPackages are the import paths of the packages that hold a
	// version of some kind (isVersionPackage).
	versionPackages map[string]bool
	// deepCopyInto caches hasDeepCopyIntoOnce, and convertFuncs each
	// package's hand-written Convert_ functions.
	deepCopyInto map[*types.Named]bool
	convertFuncs map[*loader.Package]map[[2]string]*types.Func
	// incomplete records that the pairing looked into a type that a
	// partial load left incomplete (completeness.go).
	incomplete bool
	// refused are the kinds that would fall back to strategy None but
	// converted through a webhook before (strategyfallback.go).
	refused []refusal
	// fields flattens the schemas of single fields for the narrowing
	// check (fieldSchemaIn), with a cache of its own: the named scalar
	// types those fields have.
	fields *crd.Flattener
}

// Conversions settles the conversions of m's kinds, as opts asks
// (Options.Conversions: everything generated conversions need;
// Options.Strategies: only what settles each kind's strategy). Problems go
// to diags. It reports whether it looked into a type that a partial load
// (Options.PartialTypes) left incomplete: then the model must be built
// again on a complete load.
func Conversions(m *model.Model, facts Facts, opts model.Options, diags *diag.List) (needsCompleteTypes bool) {
	pl := &planner{Model: m, facts: facts, opts: opts}
	pl.conversions(diags)
	return pl.incomplete
}

// conversions pairs the types of every spoke with its hub's. Kinds
// whose spoke and hub live in the same two packages share one pairer, so a
// struct that several kinds reach (a template, a shared spec) is paired once
// and its functions are declared once. Hand-written functions and losses are
// settled once all kinds have been paired, over each pairer's whole set.
func (pl *planner) conversions(diags *diag.List) {
	pg := pl.pairKinds(diags)
	kindPairers := pg.pairers
	order := append(slices.Clip(pg.pairers), pl.basePeerPairers(pg.pairers, diags)...)
	// Settling the strategies alone needs to know which conversions need
	// hand-written functions, not how generated ones check and lose data.
	full := pl.opts.Conversions
	pl.Pairs = map[*loader.Package][]*model.TypePair{}
	for _, p := range order {
		p.pairSameNamed()
		p.checkNarrowing(full)
		p.findManual()
		if full {
			settleDrops(p.order)
			settleLoss(p.order)
			settleLayout(p.order)
		}
		pl.Pairs[p.spoke.Package] = append(pl.Pairs[p.spoke.Package], p.order...)
	}
	pg.listReached()
	pl.useGenerated(order)
	pl.findHandWritten(diags)
	pl.settleEntryPoints(diags)
	// A base peer pairer sees every marker of its spoke package but
	// converts few of its fields: it would hide the markers that wrongly
	// say a field has no counterpart.
	reportConvertingMarkers(kindPairers)
	settleCalls(order, pg.spokesOf, full)
	pl.reportRefusals(diags)
}

// settleCalls settles what each spoke's entry points call and report. A
// spoke's conversions may call the generated functions of another pairer's
// pairs (useGenerated): what the entry points need, and which checks they
// guard, is settled over every pairer at once.
func settleCalls(order []*pairer, spokesOf map[*pairer][]*model.Spoke, full bool) {
	var spokes []*model.Spoke
	var pairs []*model.TypePair
	for _, p := range order {
		spokes = append(spokes, spokesOf[p]...)
		pairs = append(pairs, p.order...)
	}
	settleEmit(spokes, pairs)
	if full {
		settleLossyCalls(spokes, pairs)
	}
	var guarded map[*model.Direction]bool
	if full {
		guarded = guardedDirs(spokes)
	}
	for _, p := range order {
		p.reportManual(spokesOf[p])
		if full {
			p.relaxUnguarded(guarded)
			p.reportNoCounterpart()
			p.settleByHand()
			p.reportNarrowing()
			p.reportHubDrops()
		}
	}
}
