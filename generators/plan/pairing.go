package plan

import (
	"go/token"
	"go/types"

	"sigs.k8s.io/controller-tools/pkg/loader"

	"github.com/crdforge/crdforge/generators/model"
	"github.com/crdforge/crdforge/internal/diag"
	"github.com/crdforge/crdforge/markers"
)

// pairing is what pairKinds pairs: a pairer per spoke and hub package,
// in the order first met, and the spokes each serves.
type pairing struct {
	pairers  []*pairer
	spokesOf map[*pairer][]*model.Spoke
	pairerOf map[*model.Spoke]*pairer
	// reach is, per spoke, the pairs its root pair reaches.
	reach map[*model.Spoke]map[*model.TypePair]bool
}

// pairKinds makes every kind's spokes, each with its root pair.
func (pl *planner) pairKinds(diags *diag.List) *pairing {
	pg := &pairing{spokesOf: map[*pairer][]*model.Spoke{}, pairerOf: map[*model.Spoke]*pairer{}, reach: map[*model.Spoke]map[*model.TypePair]bool{}}
	pairers := map[[2]*loader.Package]*pairer{}
	for _, g := range pl.Groups {
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
					p = pl.newPairer(v, k.Hub, diags)
					pairers[key] = p
					pg.pairers = append(pg.pairers, p)
				}
				s := &model.Spoke{Version: v, Pairs: []*model.TypePair{p.pairRoot(v, k.Hub)}}
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

func (pl *planner) newPairer(spoke, hub *model.Version, diags *diag.List) *pairer {
	p := &pairer{pl: pl, pairs: map[[2]*types.TypeName]*model.TypePair{}, filled: map[*model.TypePair]bool{}, diags: diags,
		fieldMarkers: map[token.Pos]markers.Value{}, commentLines: map[token.Pos][]string{},
		metav1Funcs: metav1ConversionFuncs(spoke.Package)}
	p.classifier = classifier{spoke: spoke, hub: hub, deepCopy: pl.hasDeepCopyIntoOnce, pair: p.pair, lookInto: pl.lookInto,
		funcs: pl.handWrittenFuncs(pl.peers(spoke, hub)...), versionPackage: pl.isVersionPackage}
	p.indexFields(spoke.Package)
	p.indexFields(hub.Package)
	return p
}

// isVersionPackage reports whether pkg holds a version of some kind.
func (pl *planner) isVersionPackage(pkg *types.Package) bool {
	if pkg == nil {
		return false
	}
	if pl.versionPackages == nil {
		pl.versionPackages = map[string]bool{}
		for _, g := range pl.Groups {
			for _, k := range g.Kinds {
				for _, v := range k.Versions {
					pl.versionPackages[v.Package.PkgPath] = true
				}
			}
		}
	}
	return pl.versionPackages[pkg.Path()]
}

// peers lists the packages whose hand-written Convert_ functions a spoke's
// conversions use, first found first: the spoke's, the hub's, then every
// other loaded package that does not import the spoke's (which could not be
// imported back), as conversion-gen uses the functions of its peer
// packages. Cluster API's ipam v1alpha1 converts a reference with a function
// of ipam v1beta1, another version of the group.
func (pl *planner) peers(spoke, hub *model.Version) []*loader.Package {
	out := []*loader.Package{spoke.Package, hub.Package}
	for _, root := range pl.Roots {
		if root != spoke.Package && root != hub.Package && !pl.facts.Imports(root)[spoke.Package.PkgPath] {
			out = append(out, root)
		}
	}
	return out
}

// pairRoot pairs a kind's root types, with the versions of that kind, and
// fills every pair they reach.
func (p *pairer) pairRoot(spoke, hub *model.Version) *model.TypePair {
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
func (p *pairer) pairList(spoke, hub *model.Version) {
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
func listType(v *model.Version) (*types.Named, bool) {
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
func (p *pairer) reachable(root *model.TypePair) map[*model.TypePair]bool {
	seen := map[*model.TypePair]bool{root: true}
	out := []*model.TypePair{root}
	for i := 0; i < len(out); i++ {
		for _, mp := range out[i].Mappings {
			for _, d := range append(pairDirs(mp.ToHub.Conv), pairDirs(mp.ToSpoke.Conv)...) {
				if !seen[d.Pair] {
					seen[d.Pair] = true
					out = append(out, d.Pair)
				}
			}
		}
	}
	return seen
}

// hasDeepCopyIntoOnce is Facts.HasDeepCopyInto, computed once per type: every
// spoke's fields ask it of the same few types (metav1.Time, a shared spec),
// and each answer builds a method set.
func (pl *planner) hasDeepCopyIntoOnce(t types.Type) bool {
	n, ok := t.(*types.Named)
	if !ok {
		return pl.facts.HasDeepCopyInto(t)
	}
	if has, ok := pl.deepCopyInto[n]; ok {
		return has
	}
	if pl.deepCopyInto == nil {
		pl.deepCopyInto = map[*types.Named]bool{}
	}
	has := pl.facts.HasDeepCopyInto(n)
	pl.deepCopyInto[n] = has
	return has
}
