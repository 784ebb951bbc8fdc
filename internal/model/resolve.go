package model

import (
	"go/token"
	"go/types"
	"slices"

	"github.com/crdforge/crdforge/internal/diag"
	"github.com/crdforge/crdforge/internal/markers"
	"sigs.k8s.io/controller-tools/pkg/loader"
)

// resolveConversions pairs the types of every spoke with its hub's. Kinds
// whose spoke and hub live in the same two packages share one pairer, so a
// struct that several kinds reach (a template, a shared spec) is paired once
// and its functions are declared once. Hand-written functions and losses are
// settled once all kinds have been paired, over each pairer's whole set.
func (m *Model) resolveConversions(diags *diag.List) {
	pg := m.pairKinds(diags)
	kindPairers := pg.pairers
	order := append(slices.Clip(pg.pairers), m.basePeerPairers(pg.pairers, diags)...)
	// Settling the strategies alone needs to know which conversions need
	// hand-written functions, not how generated ones check and lose data.
	full := m.opts.Conversions
	m.Pairs = map[*loader.Package][]*TypePair{}
	for _, p := range order {
		p.pairSameNamed()
		p.checkNarrowing(full)
		p.findManual()
		if full {
			settleLoss(p.order)
			settleLayout(p.order)
		}
		m.Pairs[p.spoke.Package] = append(m.Pairs[p.spoke.Package], p.order...)
	}
	pg.listReached()
	m.useGenerated(order)
	m.findHandWritten(diags)
	m.settleEntryPoints(diags)
	// A base peer pairer sees every marker of its spoke package but
	// converts few of its fields: it would hide the markers that wrongly
	// say a field has no counterpart.
	reportConvertingMarkers(kindPairers)
	settleCalls(order, pg.spokesOf, full)
}

// pairing is what pairKinds pairs: a pairer per spoke and hub package,
// in the order first met, and the spokes each serves.
type pairing struct {
	pairers  []*pairer
	spokesOf map[*pairer][]*Spoke
	pairerOf map[*Spoke]*pairer
	// reach is, per spoke, the pairs its root pair reaches.
	reach map[*Spoke]map[*TypePair]bool
}

// pairKinds makes every kind's spokes, each with its root pair.
func (m *Model) pairKinds(diags *diag.List) *pairing {
	pg := &pairing{spokesOf: map[*pairer][]*Spoke{}, pairerOf: map[*Spoke]*pairer{}, reach: map[*Spoke]map[*TypePair]bool{}}
	pairers := map[[2]*loader.Package]*pairer{}
	for _, g := range m.Groups {
		for _, k := range g.Kinds {
			if k.Hub == nil || k.Internal != nil {
				continue
			}
			for _, v := range k.Versions {
				if v == k.Hub {
					continue
				}
				key := [2]*loader.Package{v.Package, k.Hub.Package}
				p := pairers[key]
				if p == nil {
					p = m.newPairer(v, k.Hub, diags)
					pairers[key] = p
					pg.pairers = append(pg.pairers, p)
				}
				s := &Spoke{Version: v, Pairs: []*TypePair{p.pairRoot(v, k.Hub)}}
				pg.reach[s] = p.reachable(s.Pairs[0])
				p.pairList(v, k.Hub)
				pg.spokesOf[p] = append(pg.spokesOf[p], s)
				pg.pairerOf[s] = p
				k.Spokes = append(k.Spokes, s)
			}
		}
	}
	return pg
}

// listReached lists, on each spoke, what it reaches in the pairer's
// discovery order: the same order a kind alone in its packages would give.
func (pg *pairing) listReached() {
	for s, reached := range pg.reach {
		for _, tp := range pg.pairerOf[s].order {
			if reached[tp] && tp != s.Pairs[0] {
				s.Pairs = append(s.Pairs, tp)
			}
		}
	}
}

// settleCalls settles what each spoke's entry points call and report. A
// spoke's conversions may call the generated functions of another pairer's
// pairs (useGenerated): what the entry points need, and which checks they
// guard, is settled over every pairer at once.
func settleCalls(order []*pairer, spokesOf map[*pairer][]*Spoke, full bool) {
	var spokes []*Spoke
	var pairs []*TypePair
	for _, p := range order {
		spokes = append(spokes, spokesOf[p]...)
		pairs = append(pairs, p.order...)
	}
	settleEmit(spokes, pairs)
	if full {
		settleLossyCalls(spokes, pairs)
	}
	var guarded map[*Direction]bool
	if full {
		guarded = guardedDirs(spokes)
	}
	for _, p := range order {
		p.reportManual(spokesOf[p])
		if full {
			p.relaxUnguarded(guarded)
			p.reportNoCounterpart()
			p.reportNarrowing()
		}
	}
}

func (m *Model) newPairer(spoke, hub *Version, diags *diag.List) *pairer {
	p := &pairer{m: m, pairs: map[[2]*types.TypeName]*TypePair{}, filled: map[*TypePair]bool{}, diags: diags,
		fieldMarkers: map[token.Pos]markers.Value{}, commentLines: map[token.Pos][]string{},
		metav1Funcs: metav1ConversionFuncs(spoke.Package)}
	p.classifier = classifier{spoke: spoke, hub: hub, deepCopy: m.hasDeepCopyIntoOnce, pair: p.pair, lookInto: m.lookInto,
		funcs: m.handWrittenFuncs(m.peers(spoke, hub)...), versionPackage: m.isVersionPackage}
	p.indexFields(spoke.Package)
	p.indexFields(hub.Package)
	return p
}

// isVersionPackage reports whether pkg holds a version of some kind.
func (m *Model) isVersionPackage(pkg *types.Package) bool {
	if pkg == nil {
		return false
	}
	if m.versionPackages == nil {
		m.versionPackages = map[string]bool{}
		for _, g := range m.Groups {
			for _, k := range g.Kinds {
				for _, v := range k.Versions {
					m.versionPackages[v.Package.PkgPath] = true
				}
			}
		}
	}
	return m.versionPackages[pkg.Path()]
}

// peers lists the packages whose hand-written Convert_ functions a spoke's
// conversions use, first found first: the spoke's, the hub's, then every
// other loaded package that does not import the spoke's (which could not be
// imported back), as conversion-gen uses the functions of its peer
// packages. Cluster API's ipam v1alpha1 converts a reference with a function
// of ipam v1beta1, another version of the group.
func (m *Model) peers(spoke, hub *Version) []*loader.Package {
	out := []*loader.Package{spoke.Package, hub.Package}
	for _, root := range m.Roots {
		if root != spoke.Package && root != hub.Package && !m.importsOf(root)[spoke.Package.PkgPath] {
			out = append(out, root)
		}
	}
	return out
}

// pairRoot pairs a kind's root types, with the versions of that kind, and
// fills every pair they reach.
func (p *pairer) pairRoot(spoke, hub *Version) *TypePair {
	p.spoke, p.hub = spoke, hub
	root := p.pair(spoke.Type, hub.Type)
	for i := 0; i < len(p.order); i++ {
		p.fill(p.order[i])
	}
	return root
}

// pairList pairs the list types of a kind's two versions (<Kind>List, as
// kubebuilder names them, in each package), as conversion-gen does: no
// field reaches them, yet hand-written code calls their Convert_ (Cluster
// API providers convert their lists with ConvertTo and ConvertFrom). A list
// is left out of the kind's reach: its round trips are its items'.
func (p *pairer) pairList(spoke, hub *Version) {
	sl, ok := listType(spoke)
	if !ok {
		return
	}
	hl, ok := listType(hub)
	if !ok {
		return
	}
	p.pair(sl, hl)
	for i := 0; i < len(p.order); i++ {
		p.fill(p.order[i])
	}
}

// listType finds the list type of a version's kind: the struct named after
// its root type with a List suffix, embedding TypeMeta.
func listType(v *Version) (*types.Named, bool) {
	tn, ok := v.Package.Types.Scope().Lookup(v.Type.Obj().Name() + "List").(*types.TypeName)
	if !ok {
		return nil, false
	}
	n, ok := namedStruct(tn.Type())
	if !ok || !hasTypeMeta(n) {
		return nil, false
	}
	return n, true
}

// pairSameNamed pairs every struct type of the spoke package with the hub
// package's struct of the same name, as conversion-gen does, whether or not
// a field reaches it: hand-written code may call their autoConvert_ (a type
// reached through a renamed field, say). Kinds' root and list types (those
// that embed TypeMeta) are left to their kinds (pairRoot, pairList): a
// package's kinds may have their hubs in different packages. Unexported
// types are left out: the spoke's conversion cannot name the hub's (a
// Karpenter version's validation helpers share names with the other's).
func (p *pairer) pairSameNamed() {
	spokeScope, hubScope := p.spoke.Package.Types.Scope(), p.hub.Package.Types.Scope()
	for _, name := range spokeScope.Names() {
		st, ok := spokeScope.Lookup(name).(*types.TypeName)
		if !ok || !st.Exported() {
			continue
		}
		ht, ok := hubScope.Lookup(name).(*types.TypeName)
		if !ok || p.hubDeclares[name] {
			continue
		}
		sn, sok := namedStruct(st.Type())
		hn, hok := namedStruct(ht.Type())
		if !sok || !hok || hasTypeMeta(sn) || hasTypeMeta(hn) {
			continue
		}
		p.pair(sn, hn)
	}
	for i := 0; i < len(p.order); i++ {
		p.fill(p.order[i])
	}
}

// hasTypeMeta reports whether a struct embeds metav1.TypeMeta: a kind's
// root or list type.
func hasTypeMeta(n *types.Named) bool {
	st := n.Underlying().(*types.Struct)
	for i := range st.NumFields() {
		if f := st.Field(i); isMeta(f) && f.Type().(*types.Named).Obj().Name() == "TypeMeta" {
			return true
		}
	}
	return false
}

// reachable is the set of root and every pair its fields reach.
func (p *pairer) reachable(root *TypePair) map[*TypePair]bool {
	seen := map[*TypePair]bool{root: true}
	out := []*TypePair{root}
	for i := 0; i < len(out); i++ {
		for _, mp := range out[i].Mappings {
			for _, d := range append(mp.ToHub.Conv.pairDirs(), mp.ToSpoke.Conv.pairDirs()...) {
				if !seen[d.Pair] {
					seen[d.Pair] = true
					out = append(out, d.Pair)
				}
			}
		}
	}
	return seen
}

// hasDeepCopyIntoOnce is hasDeepCopyInto, computed once per type: every
// spoke's fields ask it of the same few types (metav1.Time, a shared spec),
// and each answer builds a method set.
func (m *Model) hasDeepCopyIntoOnce(t types.Type) bool {
	n, ok := t.(*types.Named)
	if !ok {
		return m.hasDeepCopyInto(t)
	}
	if has, ok := m.deepCopyInto[n]; ok {
		return has
	}
	if m.deepCopyInto == nil {
		m.deepCopyInto = map[*types.Named]bool{}
	}
	has := m.hasDeepCopyInto(n)
	m.deepCopyInto[n] = has
	return has
}
