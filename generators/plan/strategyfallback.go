package plan

import (
	"fmt"
	"slices"

	"github.com/crdforge/crdforge/generators/model"
	"github.com/crdforge/crdforge/internal/diag"
	"github.com/crdforge/crdforge/markers"
)

// settleEntryPoints decides, for every kind, whether crdforge writes its
// ConvertTo and ConvertFrom, before settleEmit decides what they need.
//
// A kind whose strategy is None converts through no code: the API server
// only rewrites apiVersion. With +crdforge:conversion:strategy=None the
// author says so (Kyverno serves its v1 and v2beta1 policies that way, the
// two versions' JSON being compatible where their Go types are not), and
// crdforge writes no entry points for it, nor anything that they alone
// would need.
//
// A kind no marker sets a strategy for, whose versions differ, would
// convert through a webhook. Its generated entry points may need a
// hand-written function that does not exist (a field of different types in
// two versions, an opted-out type). If its author has also written no
// conversion of the kind (no Hub, ConvertTo, ConvertFrom or Convert_, no
// marker configuring its webhook), the project has never converted it. Then
// the versions are served as they were before crdforge, with strategy None,
// rather than with generated code that does not build. crdforge says, at
// each field, what to write, and at the kind that it stays None until then.
// An author who has written a conversion of the kind, or configured or
// marked its webhook, gets conversion-gen's behaviour instead: the missing
// function fails the build. A kind whose committed CRD converts through a
// webhook has converted before: the missing function is an error of the
// run (reportRefusals), which writes nothing.
func (pl *planner) settleEntryPoints(diags *diag.List) {
	for _, g := range pl.Groups {
		for _, k := range g.Kinds {
			pl.settleKindEntryPoints(k, diags)
		}
	}
}

func (pl *planner) settleKindEntryPoints(k *model.Kind, diags *diag.List) {
	conv := &k.Conversion
	if conv.Strategy == markers.StrategyNone && conv.Explicit {
		for _, s := range k.Spokes {
			s.NoEntryPoints = true
		}
		return
	}
	if conv.Strategy != markers.StrategyWebhook || conv.Explicit || pl.authorConverts(k) {
		return
	}
	missing := missingFuncs(k)
	if len(missing) == 0 {
		return
	}
	if conv.CommittedWebhook != "" {
		pl.refused = append(pl.refused, refusal{k, missing})
		return
	}
	conv.Strategy = markers.StrategyNone
	for _, s := range k.Spokes {
		s.NoEntryPoints = true
	}
	for _, d := range missing {
		d.WantedBy = append(d.WantedBy, k)
	}
	diags.Warnf(k.Pos(), "%s's versions differ and need %s no one has written yet", k.Name, funcCount(len(missing))).
		Note("each is asked for where it is needed").
		Note("crdforge writes no ConvertTo or ConvertFrom for %s, and its CRD keeps conversion strategy None, as without crdforge (the API server then only rewrites apiVersion)", k.Name).
		Help("write %s to have every version converted through the webhook", pronoun(len(missing))).
		Help("mark the kind +%s:strategy=None to say that None is meant, or strategy=Webhook to make the missing functions a build error", markers.ConversionName)
}

// A refusal is a kind whose committed CRD converts it through a webhook
// (a cluster given that CRD may store its objects at two versions) and
// whose conversion lacks functions, a Convert_ deleted or renamed: it keeps
// its webhook, rather than falling back to strategy None, which would have
// clients read objects stored at another version unconverted.
type refusal struct {
	kind    *model.Kind
	missing []*model.Direction
}

// reportRefusals reports each refusal as an error at its kind, naming the
// functions to write. It runs after every other pass: some of them report
// nothing once an error exists, and the kind, converting through its
// webhook, has their warnings to show in this run too.
func (pl *planner) reportRefusals(diags *diag.List) {
	for _, r := range pl.refused {
		k := r.kind
		names := make([]string, len(r.missing))
		for i, d := range r.missing {
			names[i] = d.Func
		}
		slices.Sort(names)
		diags.Errorf(k.Pos(), "%s converts through a webhook, and lacks %s", k.Name, funcCount(len(names))).
			Note("%s, committed, has conversion strategy Webhook: without %s, %s would fall back to strategy None, and clients would read objects stored at another version unconverted", k.Conversion.CommittedWebhook, diag.AndList(names), k.Name).
			Note("each is asked for where it is needed").
			Help("write %s", diag.AndList(names)).
			Help("or mark the kind +%s:strategy=None if None is meant (the API server then only rewrites apiVersion)", markers.ConversionName)
	}
}

// authorConverts reports whether the kind's author configured its webhook
// (a marker, or a conversion webhook kubebuilder scaffolded), or wrote any
// of its controller-runtime entry points, another framework's, or a
// Convert_ function of a pair it reaches.
func (pl *planner) authorConverts(k *model.Kind) bool {
	if k.HubMethod != nil || k.Conversion.Configured || (pl.Kubebuilder != nil && pl.Kubebuilder.ConversionWebhook(k.Group, k.Name)) {
		return true
	}
	for _, s := range k.Spokes {
		if s.ConvertTo != nil || s.ConvertFrom != nil || s.Foreign != nil {
			return true
		}
		for _, tp := range s.Pairs {
			if tp.ToHub.Manual != nil || tp.ToSpoke.Manual != nil {
				return true // a Convert_ written for conversion-gen's output
			}
		}
	}
	return false
}

// missingFuncs lists the directions the kind's generated entry points need,
// through the fields of every pair they reach, whose Convert_ function
// must be hand-written and is not.
func missingFuncs(k *model.Kind) []*model.Direction {
	seen := map[*model.Direction]bool{}
	var queue, missing []*model.Direction
	visit := func(d *model.Direction) {
		if !seen[d] {
			seen[d] = true
			queue = append(queue, d)
		}
	}
	for _, s := range k.Spokes {
		root := s.Pairs[0]
		for _, d := range root.Directions() {
			if s.Generates(d) {
				visit(d)
			}
		}
	}
	for len(queue) > 0 {
		d := queue[0]
		queue = queue[1:]
		if d.Manual != nil || d.WrongSignature {
			continue // hand-written, or reported as written wrong
		}
		if fields, _ := d.NeedsManual(); d.Pair.OptOut || len(fields) > 0 {
			missing = append(missing, d)
			if d.Pair.OptOut {
				continue // no autoConvert_: what it needs is its author's
			}
		}
		// The autoConvert_ a hand-written Convert_ will call is generated:
		// what it calls is needed too.
		for _, e := range calls(d) {
			visit(e)
		}
	}
	return missing
}

func funcCount(n int) string {
	if n == 1 {
		return "a hand-written Convert_ function"
	}
	return fmt.Sprintf("%d hand-written Convert_ functions", n)
}

func pronoun(n int) string {
	if n == 1 {
		return "it"
	}
	return "them"
}

// servedNone names, for a warning about a function a kind that fell back
// to strategy None wants, the kinds it keeps at None.
func servedNone(d *model.Direction) string {
	if len(d.WantedBy) == 0 {
		return ""
	}
	names := make([]string, len(d.WantedBy))
	for i, k := range d.WantedBy {
		names[i] = k.Name
	}
	verb := "converts"
	if len(names) > 1 {
		verb = "convert"
	}
	return fmt.Sprintf("until then %s %s with strategy None", diag.AndList(names), verb)
}
