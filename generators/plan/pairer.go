package plan

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"k8s.io/gengo/v2"
	"sigs.k8s.io/controller-tools/pkg/loader"

	"github.com/crdforge/crdforge/generators/model"
	"github.com/crdforge/crdforge/internal/diag"
	"github.com/crdforge/crdforge/markers"
)

// pairer builds the type pairs of one spoke: it pairs the root types, then
// every struct pair their fields reach.
type pairer struct {
	classifier
	pl           *planner
	pairs        map[[2]*types.TypeName]*model.TypePair
	order        []*model.TypePair
	filled       map[*model.TypePair]bool
	diags        *diag.List
	fieldMarkers map[token.Pos]markers.Value
	commentLines map[token.Pos][]string
	// metav1Funcs are the types metav1's Convert_ functions convert.
	metav1Funcs map[[2]string]bool
	// hubDeclares, set on a base peer pairer only (basepeers.go), are the
	// names the hubs of its spoke package declare: a struct of such a name
	// pairs with its hub namesake, not with metav1's.
	hubDeclares map[string]bool
}

// indexFields indexes the +crdforge:hubfield markers and the marker comment
// lines of a package's fields and types by declaration position.
func (p *pairer) indexFields(pkg *loader.Package) {
	set := p.pl.Markers[pkg]
	if set == nil {
		return
	}
	for f, vals := range set.Fields {
		for _, v := range vals {
			if v.Name == markers.HubFieldName {
				p.fieldMarkers[fieldPos(f)] = v
			}
		}
	}
	docs := docGroups{fset: p.pl.Fset, pkg: pkg}
	for node, comments := range set.Comments {
		var pos token.Pos
		switch n := node.(type) {
		case *ast.Field:
			pos = fieldPos(n)
		case *ast.TypeSpec:
			pos = n.Name.Pos()
		default:
			continue
		}
		doc := docs.closest(pos)
		for _, c := range comments {
			if doc != nil && doc.Pos() <= c.Pos && c.Pos < doc.End() {
				p.commentLines[pos] = append(p.commentLines[pos], c.Text)
			} else if c.Name() == model.ConversionGenTag {
				p.diags.Warnf(c.Pos, "+%s here has no effect", model.ConversionGenTag).
					Note("conversion-gen, and crdforge with it, reads it only in the comment directly above the declaration, with no blank line between").
					Help("move it there to opt out")
			}
		}
	}
}

func fieldPos(f *ast.Field) token.Pos {
	if len(f.Names) > 0 {
		return f.Names[0].Pos()
	}
	return f.Type.Pos()
}

// optedOut reads conversion-gen's +k8s:conversion-gen=false tag on the
// declaration at pos, with gengo's comment-tag parser, where conversion-gen
// reads it: in the comment group that ends on the line above the
// declaration. (Kubebuilder's markers may also sit in the group before,
// across a blank line; conversion-gen ignores a tag there, and Cluster API's
// MachinePool relies on that.)
func (p *pairer) optedOut(pos token.Pos) bool {
	lines := p.commentLines[pos]
	if len(lines) == 0 {
		return false
	}
	enabled, err := gengo.ExtractSingleBoolCommentTag("+", model.ConversionGenTag, true, lines)
	if err != nil {
		return false // a package path, as on a package: not an opt-out
	}
	return !enabled
}

// pair returns the pair of two named structs, creating it on first sight.
func (p *pairer) pair(spoke, hub *types.Named) *model.TypePair {
	key := [2]*types.TypeName{spoke.Obj(), hub.Obj()}
	if tp, ok := p.pairs[key]; ok {
		return tp
	}
	tp := newPair(spoke, hub, p.spoke, p.hub)
	tp.OptOut = p.optedOut(spoke.Obj().Pos()) || p.optedOut(hub.Obj().Pos())
	p.pairs[key] = tp
	p.order = append(p.order, tp)
	return tp
}

// newPair makes a pair and its two directions, named the conversion-gen
// way: Convert_<from package>_<Type>_To_<to package>_<Type>.
func newPair(spoke, hub *types.Named, spokeVersion, hubVersion *model.Version) *model.TypePair {
	tp := &model.TypePair{Spoke: spoke, Hub: hub, SpokeVersion: spokeVersion, HubVersion: hubVersion, Pos: spoke.Obj().Pos()}
	tp.ToHub = newDirection(tp, spoke, hub, spokeVersion, hubVersion)
	tp.ToSpoke = newDirection(tp, hub, spoke, hubVersion, spokeVersion)
	tp.ToHub.Reverse, tp.ToSpoke.Reverse = tp.ToSpoke, tp.ToHub
	return tp
}

func newDirection(tp *model.TypePair, from, to *types.Named, fromVersion, toVersion *model.Version) *model.Direction {
	suffix := fromVersion.Package.Name + "_" + from.Obj().Name() + "_To_" + toVersion.Package.Name + "_" + to.Obj().Name()
	return &model.Direction{Pair: tp, From: from, To: to, FromVersion: fromVersion, ToVersion: toVersion,
		Func: "Convert_" + suffix, AutoFunc: "autoConvert_" + suffix, LossyFunc: "lossy_" + suffix}
}

// fill matches the fields of a pair: by +crdforge:hubfield, else by Go name.
func (p *pairer) fill(tp *model.TypePair) {
	if p.filled[tp] {
		return
	}
	p.filled[tp] = true
	spokeSt, _ := tp.Spoke.Underlying().(*types.Struct)
	hubSt, _ := tp.Hub.Underlying().(*types.Struct)
	if spokeSt == nil || hubSt == nil {
		return
	}
	covered := map[*types.Var]bool{}
	for i := 0; i < spokeSt.NumFields(); i++ {
		f := spokeSt.Field(i)
		if isMeta(f) {
			hf := hubField(hubSt, f.Name())
			covered[hf] = true
			if f.Name() != "TypeMeta" && hf != nil && isMeta(hf) {
				tp.Meta = append(tp.Meta, f.Name())
			}
			continue
		}
		if !f.Exported() {
			continue
		}
		path, ok := p.hubPath(tp, hubSt, f)
		if !ok {
			continue
		}
		if path == nil {
			tp.ToHub.SourceOnly = append(tp.ToHub.SourceOnly, f)
			continue
		}
		mp := p.mapping(tp, f, path)
		for _, hf := range p.covers(mp) {
			covered[hf] = true
		}
		tp.Mappings = append(tp.Mappings, mp)
		tp.ToHub.Fields = append(tp.ToHub.Fields, mp.ToHub)
		tp.ToSpoke.Fields = append(tp.ToSpoke.Fields, mp.ToSpoke)
	}
	for i := 0; i < hubSt.NumFields(); i++ {
		if f := hubSt.Field(i); f.Exported() && !covered[f] && !isMeta(f) {
			tp.ToSpoke.SourceOnly = append(tp.ToSpoke.SourceOnly, f)
		}
	}
	tp.ToSpoke.NestedSourceOnly, tp.ToSpoke.NilThrough = movedCoverage(tp.Mappings)
}

// hubPath finds where a spoke field lives in the hub struct: the
// +crdforge:hubfield path, else the field of the same name. It returns nil
// for a field with no counterpart, an empty path for hubfield=., and false
// after reporting a bad marker.
func (p *pairer) hubPath(tp *model.TypePair, hubSt *types.Struct, f *types.Var) ([]*types.Var, bool) {
	if mv, ok := p.fieldMarkers[f.Pos()]; ok {
		return p.resolvePath(tp, hubSt, f, string(mv.Value.(markers.HubField)), mv.Pos)
	}
	if hf := hubField(hubSt, f.Name()); hf != nil {
		return []*types.Var{hf}, true
	}
	return nil, true
}

// mapping builds the mapping of a spoke field to a hub path, with its
// conversion each way.
func (p *pairer) mapping(tp *model.TypePair, f *types.Var, path []*types.Var) *model.Mapping {
	mp := &model.Mapping{Spoke: f, HubPath: path, Whole: len(path) == 0, Pos: f.Pos(), OptOut: p.optedOut(f.Pos())}
	hubType := types.Type(tp.Hub)
	if !mp.Whole {
		last := path[len(path)-1]
		hubType = last.Type()
		mp.OptOut = mp.OptOut || p.optedOut(last.Pos())
	}
	spokePath := []*types.Var{f}
	mp.ToHub = &model.FieldConv{Mapping: mp, Source: spokePath, Dest: path, Conv: p.conv(f.Type(), hubType)}
	mp.ToSpoke = &model.FieldConv{Mapping: mp, Source: path, Dest: spokePath, Conv: p.conv(hubType, f.Type())}
	return mp
}

// covers lists the top-level hub fields a mapping writes: the first field
// of its path or, for a Whole mapping, every hub field the inner pair maps.
func (p *pairer) covers(mp *model.Mapping) []*types.Var {
	if !mp.Whole {
		return mp.HubPath[:1]
	}
	var out []*types.Var
	if c := mp.ToHub.Conv; c.Kind == model.ConvPair {
		inner := c.Dir.Pair
		p.fill(inner)
		for _, m := range inner.Mappings {
			if !m.Whole {
				out = append(out, m.HubPath[0])
			}
		}
	}
	return out
}

// coverage is a trie of the hub paths mappings write.
type coverage struct {
	// full says a moved field's mapping writes the path; whole that a
	// field paired by name writes it, converting its value whole (its own
	// pair's mappings say which of its fields), while moved fields also
	// write below it.
	full, whole bool
	children    map[*types.Var]*coverage
	order       []*types.Var
}

// movedCoverage finds, below hub fields that mappings reach only in part,
// the hub fields nothing maps, and the pointers on the way. A hub struct
// that a spoke field of the same name converts to as a whole (v1alpha1's
// Network beside a Host moved into v1's Network.Host) is not reached in
// part: what its conversion leaves out, its pair reports.
func movedCoverage(mappings []*model.Mapping) (uncovered, through [][]*types.Var) {
	root := &coverage{children: map[*types.Var]*coverage{}}
	for _, m := range mappings {
		if len(m.HubPath) < 2 {
			continue
		}
		n := root
		for _, f := range m.HubPath {
			c, ok := n.children[f]
			if !ok {
				c = &coverage{children: map[*types.Var]*coverage{}}
				n.children[f] = c
				n.order = append(n.order, f)
			}
			n = c
		}
		n.full = true
	}
	for _, m := range mappings {
		if len(m.HubPath) == 1 {
			if c, moved := root.children[m.HubPath[0]]; moved {
				c.whole = true
			}
		}
	}
	var walk func(n *coverage, path []*types.Var, whole bool)
	walk = func(n *coverage, path []*types.Var, whole bool) {
		for _, f := range n.order {
			c := n.children[f]
			p := append(slices.Clone(path), f)
			if c.full {
				continue
			}
			if _, isPtr := f.Type().(*types.Pointer); isPtr {
				through = append(through, p)
			}
			if !whole && !c.whole {
				for _, sub := range exportedFields(deref(f.Type())) {
					if _, mapped := c.children[sub]; !mapped {
						uncovered = append(uncovered, append(slices.Clone(p), sub))
					}
				}
			}
			walk(c, p, whole || c.whole)
		}
	}
	walk(root, nil, false)
	return uncovered, through
}

// exportedFields lists the exported fields of a struct type, or nothing.
func exportedFields(t types.Type) []*types.Var {
	st, ok := t.Underlying().(*types.Struct)
	if !ok {
		return nil
	}
	var out []*types.Var
	for i := 0; i < st.NumFields(); i++ {
		if st.Field(i).Exported() {
			out = append(out, st.Field(i))
		}
	}
	return out
}

// resolvePath walks a +crdforge:hubfield path from the hub struct.
func (p *pairer) resolvePath(tp *model.TypePair, hubSt *types.Struct, f *types.Var, path string, pos token.Pos) ([]*types.Var, bool) {
	path = strings.TrimSpace(path)
	if path == "." {
		if _, ok := namedStruct(f.Type()); !ok {
			p.diags.Errorf(pos, "+%s=. on %s.%s: only a struct-typed field can convert to the enclosing hub struct %s", markers.HubFieldName, tp.Spoke.Obj().Name(), f.Name(), tp.Hub.Obj().Name())
			return nil, false
		}
		return []*types.Var{}, true
	}
	var out []*types.Var
	cur, curName := hubSt, tp.Hub.Obj().Name()
	names := strings.Split(path, ".")
	for i, name := range names {
		if cur == nil {
			p.diags.Errorf(pos, "+%s=%s on %s.%s: %s is not a struct, so it has no field %s", markers.HubFieldName, path, tp.Spoke.Obj().Name(), f.Name(), curName, name)
			return nil, false
		}
		hf := hubField(cur, name)
		if hf == nil {
			p.diags.Errorf(pos, "+%s=%s on %s.%s: hub type %s (%s) has no field %s",
				markers.HubFieldName, path, tp.Spoke.Obj().Name(), f.Name(), curName, p.hub.Name, name).
				Note("its fields are %s", fieldNames(cur))
			return nil, false
		}
		out = append(out, hf)
		if i < len(names)-1 {
			n, ok := namedStruct(deref(hf.Type()))
			if !ok {
				cur, curName = nil, types.TypeString(hf.Type(), nil)
				continue
			}
			cur, curName = n.Underlying().(*types.Struct), n.Obj().Name()
		}
	}
	return out, true
}

func fieldNames(st *types.Struct) string {
	var names []string
	for i := 0; i < st.NumFields(); i++ {
		if f := st.Field(i); f.Exported() && !isMeta(f) {
			names = append(names, f.Name())
		}
	}
	return strings.Join(names, ", ")
}

func hubField(st *types.Struct, name string) *types.Var {
	for i := 0; i < st.NumFields(); i++ {
		if f := st.Field(i); f.Name() == name {
			return f
		}
	}
	return nil
}

// isMeta reports whether f is the embedded TypeMeta, ObjectMeta or ListMeta,
// which root conversions handle themselves.
func isMeta(f *types.Var) bool {
	n, ok := f.Type().(*types.Named)
	if !ok || !f.Embedded() || n.Obj().Pkg() == nil {
		return false
	}
	return n.Obj().Pkg().Path() == "k8s.io/apimachinery/pkg/apis/meta/v1" &&
		(n.Obj().Name() == "TypeMeta" || n.Obj().Name() == "ObjectMeta" || n.Obj().Name() == "ListMeta")
}

func deref(t types.Type) types.Type {
	if p, ok := t.(*types.Pointer); ok {
		return p.Elem()
	}
	return t
}

func namedStruct(t types.Type) (*types.Named, bool) {
	n, ok := t.(*types.Named)
	if !ok {
		return nil, false
	}
	_, isStruct := n.Underlying().(*types.Struct)
	return n, isStruct
}
