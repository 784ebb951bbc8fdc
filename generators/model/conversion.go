package model

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"github.com/crdforge/crdforge/internal/diag"
	"github.com/crdforge/crdforge/markers"
	"k8s.io/gengo/v2"
	"sigs.k8s.io/controller-tools/pkg/loader"
)

// ConvKind says how a value of one type becomes a value of another.
type ConvKind int

const (
	// ConvAssign copies a value that holds no references: out = in.
	ConvAssign ConvKind = iota
	// ConvCast converts between basic types of the same kind, such as an
	// enum across versions: out = T(in).
	ConvCast
	// ConvDeepCopy copies an identical type that holds references, through
	// its DeepCopyInto method.
	ConvDeepCopy
	// ConvPair converts paired structs through their Convert_ function.
	ConvPair
	// ConvPointer converts *S to *D: nil stays nil.
	ConvPointer
	// ConvDeref converts *S to D: nil becomes the zero value.
	ConvDeref
	// ConvAddr converts S to *D: the pointer is always set.
	ConvAddr
	// ConvSlice and ConvArray convert element by element; nil stays nil.
	ConvSlice
	ConvArray
	// ConvMap converts key and value of every entry; nil stays nil.
	ConvMap
	// ConvManual has no mechanical conversion: a hand-written function must
	// convert the enclosing type.
	ConvManual
)

// Conv is how one value converts to another.
type Conv struct {
	Kind     ConvKind
	From, To types.Type
	// Elem converts pointer targets, slice and array elements, map values;
	// Key converts map keys.
	Elem, Key *Conv
	// Pair is the struct pair ConvPair converts through.
	Pair *TypePair
	// Reason says why a ConvManual conversion is not mechanical.
	Reason string
}

// find returns the first part of the conversion, itself or an element or
// key inside it, where at says true, searching the parts at decides nothing
// about (decided false).
func (c *Conv) find(at func(*Conv) (found, decided bool)) *Conv {
	if found, decided := at(c); decided {
		if found {
			return c
		}
		return nil
	}
	switch c.Kind {
	case ConvPointer, ConvDeref, ConvAddr, ConvSlice, ConvArray:
		return c.Elem.find(at)
	case ConvMap:
		if k := c.Key.find(at); k != nil {
			return k
		}
		return c.Elem.find(at)
	}
	return nil
}

// Lossy reports whether the conversion can drop information: a nil pointer
// that becomes a zero value, or anything that needs a hand-written function.
func (c *Conv) Lossy(toHub bool) bool {
	return c.find(func(c *Conv) (bool, bool) {
		switch c.Kind {
		case ConvDeref, ConvManual:
			return true, true
		case ConvPair:
			return c.Pair.Lossy(toHub), true
		}
		return false, false
	}) != nil
}

// Manual reports whether the conversion, or a part of it, needs a
// hand-written function, and why.
func (c *Conv) Manual() (bool, string) {
	m := c.find(func(c *Conv) (bool, bool) { return c.Kind == ConvManual, c.Kind == ConvManual })
	if m == nil {
		return false, ""
	}
	return true, m.Reason
}

// TypePair is a spoke type and the hub type it converts to and from. The
// root pair is the kind's root types; the others are reachable from it.
type TypePair struct {
	Spoke, Hub *types.Named
	// SpokeVersion and HubVersion name the two versions.
	SpokeVersion, HubVersion *Version
	// Mappings pair spoke fields with hub fields, in the spoke's field order.
	Mappings []*Mapping
	// SpokeOnly and HubOnly are fields with no counterpart.
	SpokeOnly, HubOnly []*types.Var
	// NestedHubOnly are hub fields with no counterpart inside hub structs
	// that spoke fields moved into in part (Network.Proto when only
	// Network.Host and Network.Port came from the spoke), as paths from the
	// hub struct.
	NestedHubOnly [][]*types.Var
	// MovedThrough are the pointer fields on the way to moved fields
	// (Network when it is *NetworkSpec): converting to the hub always sets
	// them, so a nil one is lost.
	MovedThrough [][]*types.Var
	// OptOut is set by +k8s:conversion-gen=false on either type: no function
	// is generated, the author writes both.
	OptOut bool
	// ManualToHub and ManualToSpoke are the hand-written Convert_ functions
	// found in the spoke package, if any; they take over the generated ones.
	ManualToHub, ManualToSpoke *types.Func
	// wrongSignature marks directions whose hand-written function exists
	// with the wrong signature: reported as such, not as missing.
	wrongSignature [2]bool
	// LossyToHub and LossyToSpoke say whether a conversion in that direction
	// can drop information, so that the generated code must check and stash.
	LossyToHub, LossyToSpoke bool
	// DynamicToHub and DynamicToSpoke say that only converting back can tell
	// whether data was lost: a hand-written function, an opt-out, a field
	// moved into part of a nested struct. Otherwise the generated code checks
	// the statically lossy fields alone.
	DynamicToHub, DynamicToSpoke bool
	// Pos is the spoke type's declaration.
	Pos token.Pos
}

// Root reports whether the pair is the kind's root types.
func (p *TypePair) Root() bool {
	return p.Spoke.Obj() == p.SpokeVersion.Type.Obj()
}

// FuncName is the conversion-gen style name of the public conversion:
// Convert_<from>_<Type>_To_<to>_<Type>.
func (p *TypePair) FuncName(toHub bool) string {
	return "Convert_" + p.suffix(toHub)
}

// LossyFuncName is the generated check for data a direction would lose.
func (p *TypePair) LossyFuncName(toHub bool) string {
	return "lossy_" + p.suffix(toHub)
}

// SourceOnly lists the fields of the direction's source with no counterpart.
func (p *TypePair) SourceOnly(toHub bool) []*types.Var {
	if toHub {
		return p.SpokeOnly
	}
	return p.HubOnly
}

// AutoFuncName is the generated conversion that a hand-written one calls.
func (p *TypePair) AutoFuncName(toHub bool) string {
	return "autoConvert_" + p.suffix(toHub)
}

func (p *TypePair) suffix(toHub bool) string {
	s, h := p.SpokeVersion.Package.Name+"_"+p.Spoke.Obj().Name(), p.HubVersion.Package.Name+"_"+p.Hub.Obj().Name()
	if toHub {
		return s + "_To_" + h
	}
	return h + "_To_" + s
}

// Manual returns the hand-written function for a direction.
func (p *TypePair) Manual(toHub bool) *types.Func {
	if toHub {
		return p.ManualToHub
	}
	return p.ManualToSpoke
}

// Mapping pairs one spoke field with where it lives in the hub.
type Mapping struct {
	Spoke *types.Var
	// HubPath leads from the hub struct to the hub field, through nested
	// structs. It is empty when the spoke field's struct converts to the hub
	// struct itself (+crdforge:hubfield=.).
	HubPath []*types.Var
	// ToHub and ToSpoke convert the values.
	ToHub, ToSpoke *Conv
	// OptOut is set by +k8s:conversion-gen=false on the field.
	OptOut bool
	// Pos is the spoke field's declaration.
	Pos token.Pos
}

// NeedsManual lists, for a direction, the mappings that need a hand-written
// function with the reason.
func (p *TypePair) NeedsManual(toHub bool) (fields []*Mapping, reasons []string) {
	for _, m := range p.Mappings {
		if m.OptOut {
			continue
		}
		c := m.ToSpoke
		if toHub {
			c = m.ToHub
		}
		if ok, reason := c.Manual(); ok {
			fields = append(fields, m)
			reasons = append(reasons, reason)
		}
	}
	return fields, reasons
}

// Spoke is one non-hub version of a kind with every type pair reachable
// from its root type.
type Spoke struct {
	Version *Version
	// Pairs starts with the root pair; the rest follow in discovery order.
	Pairs []*TypePair
}

// pairer builds the pairs of one spoke.
type pairer struct {
	m            *Model
	spoke, hub   *Version
	pairs        map[[2]*types.TypeName]*TypePair
	order        []*TypePair
	filled       map[*TypePair]bool
	diags        *diag.List
	fieldMarkers map[token.Pos]markers.Value
	commentLines map[token.Pos][]string
}

func (m *Model) resolveSpokes(k *Kind, diags *diag.List) {
	if k.Hub == nil {
		return
	}
	for _, v := range k.Versions {
		if v == k.Hub {
			continue
		}
		p := &pairer{m: m, spoke: v, hub: k.Hub, pairs: map[[2]*types.TypeName]*TypePair{}, filled: map[*TypePair]bool{}, diags: diags}
		p.indexFields(v.Package)
		p.indexFields(k.Hub.Package)
		p.pair(v.Type, k.Hub.Type)
		for i := 0; i < len(p.order); i++ {
			p.fill(p.order[i])
		}
		p.findManual()
		p.settleLossiness()
		p.reportManual()
		k.Spokes = append(k.Spokes, &Spoke{Version: v, Pairs: p.order})
	}
}

// reportManual tells, for every conversion that needs a hand-written
// function the author has not written yet, which field needs it, why, and
// the exact signature to write.
func (p *pairer) reportManual() {
	for _, tp := range p.order {
		for _, toHub := range []bool{true, false} {
			if tp.Manual(toHub) != nil || tp.wrongSignature[dirIndex(toHub)] {
				continue
			}
			if tp.OptOut {
				p.diags.Warnf(tp.Pos, "%s is opted out with +k8s:conversion-gen=false: write %s in package %s",
					tp.Spoke.Obj().Name(), Signature(tp, toHub), p.spoke.Package.Name)
				continue
			}
			fields, reasons := tp.NeedsManual(toHub)
			for i, m := range fields {
				p.diags.Warnf(m.Pos, "in.%s requires manual conversion (%s): %s; write %s in package %s",
					m.Spoke.Name(), direction(tp, toHub), reasons[i], Signature(tp, toHub), p.spoke.Package.Name)
			}
		}
	}
}

func dirIndex(toHub bool) int {
	if toHub {
		return 0
	}
	return 1
}

func direction(tp *TypePair, toHub bool) string {
	if toHub {
		return tp.SpokeVersion.Name + " to " + tp.HubVersion.Name
	}
	return tp.HubVersion.Name + " to " + tp.SpokeVersion.Name
}

// indexFields indexes the +crdforge:hubfield markers and the marker comment
// lines of a package's fields and types by declaration position.
func (p *pairer) indexFields(pkg *loader.Package) {
	if p.fieldMarkers == nil {
		p.fieldMarkers, p.commentLines = map[token.Pos]markers.Value{}, map[token.Pos][]string{}
	}
	set := p.m.Markers[pkg]
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
		for _, c := range comments {
			p.commentLines[pos] = append(p.commentLines[pos], c.Text)
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
// declaration at pos, with gengo's comment-tag parser.
func (p *pairer) optedOut(pos token.Pos) bool {
	lines := p.commentLines[pos]
	if len(lines) == 0 {
		return false
	}
	enabled, err := gengo.ExtractSingleBoolCommentTag("+", "k8s:conversion-gen", true, lines)
	if err != nil {
		return false // a package path, as on a package: not an opt-out
	}
	return !enabled
}

// pair returns the pair of two named structs, creating it on first sight.
func (p *pairer) pair(spoke, hub *types.Named) *TypePair {
	key := [2]*types.TypeName{spoke.Obj(), hub.Obj()}
	if tp, ok := p.pairs[key]; ok {
		return tp
	}
	tp := &TypePair{Spoke: spoke, Hub: hub, SpokeVersion: p.spoke, HubVersion: p.hub, Pos: spoke.Obj().Pos()}
	tp.OptOut = p.optedOut(spoke.Obj().Pos()) || p.optedOut(hub.Obj().Pos())
	p.pairs[key] = tp
	p.order = append(p.order, tp)
	return tp
}

// fill matches the fields of a pair: by +crdforge:hubfield, else by Go name.
func (p *pairer) fill(tp *TypePair) {
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
		if !f.Exported() || isMeta(f) {
			if isMeta(f) {
				covered[hubField(hubSt, f.Name())] = true
			}
			continue
		}
		var path []*types.Var
		if mv, ok := p.fieldMarkers[f.Pos()]; ok {
			var ok bool
			path, ok = p.resolvePath(tp, hubSt, f, string(mv.Value.(markers.HubField)), mv.Pos)
			if !ok {
				continue
			}
		} else if hf := hubField(hubSt, f.Name()); hf != nil {
			path = []*types.Var{hf}
		} else {
			tp.SpokeOnly = append(tp.SpokeOnly, f)
			continue
		}
		mp := &Mapping{Spoke: f, HubPath: path, Pos: f.Pos(), OptOut: p.optedOut(f.Pos())}
		if len(path) > 0 {
			covered[path[0]] = true
			if p.optedOut(path[len(path)-1].Pos()) {
				mp.OptOut = true
			}
		}
		hubType := types.Type(tp.Hub)
		if len(path) > 0 {
			hubType = path[len(path)-1].Type()
		}
		mp.ToHub = p.conv(f.Type(), hubType)
		mp.ToSpoke = p.conv(hubType, f.Type())
		if len(path) == 0 {
			// The spoke field's struct converts to the enclosing hub struct:
			// every hub field it maps is covered.
			if mp.ToHub.Kind == ConvPair {
				p.fill(mp.ToHub.Pair)
				for _, inner := range mp.ToHub.Pair.Mappings {
					if len(inner.HubPath) > 0 {
						covered[inner.HubPath[0]] = true
					}
				}
			}
		}
		tp.Mappings = append(tp.Mappings, mp)
	}
	for i := 0; i < hubSt.NumFields(); i++ {
		if f := hubSt.Field(i); f.Exported() && !covered[f] && !isMeta(f) {
			tp.HubOnly = append(tp.HubOnly, f)
		}
	}
	tp.NestedHubOnly, tp.MovedThrough = movedCoverage(tp.Mappings)
}

// coverage is a trie of the hub paths mappings write.
type coverage struct {
	full     bool
	children map[*types.Var]*coverage
	order    []*types.Var
}

// movedCoverage finds, below hub fields that mappings reach only in part,
// the hub fields nothing maps, and the pointers on the way.
func movedCoverage(mappings []*Mapping) (uncovered, through [][]*types.Var) {
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
	var walk func(n *coverage, path []*types.Var)
	walk = func(n *coverage, path []*types.Var) {
		for _, f := range n.order {
			c := n.children[f]
			p := append(slices.Clone(path), f)
			if c.full {
				continue
			}
			if _, isPtr := f.Type().(*types.Pointer); isPtr {
				through = append(through, p)
			}
			st, ok := deref(f.Type()).Underlying().(*types.Struct)
			if !ok {
				continue
			}
			for i := 0; i < st.NumFields(); i++ {
				sub := st.Field(i)
				if !sub.Exported() {
					continue
				}
				if _, mapped := c.children[sub]; !mapped {
					uncovered = append(uncovered, append(slices.Clone(p), sub))
				}
			}
			walk(c, p)
		}
	}
	walk(root, nil)
	return uncovered, through
}

// resolvePath walks a +crdforge:hubfield path from the hub struct.
func (p *pairer) resolvePath(tp *TypePair, hubSt *types.Struct, f *types.Var, path string, pos token.Pos) ([]*types.Var, bool) {
	path = strings.TrimSpace(path)
	if path == "." {
		if _, ok := namedStruct(f.Type()); !ok {
			p.diags.Errorf(pos, "+%s=. on %s.%s: only a struct-typed field can convert to the enclosing hub struct %s", markers.HubFieldName, tp.Spoke.Obj().Name(), f.Name(), p.typeName(tp.Hub))
			return nil, false
		}
		return []*types.Var{}, true
	}
	var out []*types.Var
	cur, curName := hubSt, p.typeName(tp.Hub)
	for i, name := range strings.Split(path, ".") {
		if cur == nil {
			p.diags.Errorf(pos, "+%s=%s on %s.%s: %s is not a struct, so it has no field %s", markers.HubFieldName, path, tp.Spoke.Obj().Name(), f.Name(), curName, name)
			return nil, false
		}
		hf := hubField(cur, name)
		if hf == nil {
			p.diags.Errorf(pos, "+%s=%s on %s.%s: hub type %s (%s) has no field %s; its fields are %s",
				markers.HubFieldName, path, tp.Spoke.Obj().Name(), f.Name(), curName, p.hub.Name, name, fieldNames(cur))
			return nil, false
		}
		out = append(out, hf)
		if i < len(strings.Split(path, "."))-1 {
			n, ok := namedStruct(deref(hf.Type()))
			if !ok {
				cur, curName = nil, types.TypeString(hf.Type(), nil)
				continue
			}
			cur, curName = n.Underlying().(*types.Struct), p.typeName(n)
		}
	}
	return out, true
}

func (p *pairer) typeName(n *types.Named) string { return n.Obj().Name() }

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

// local reports whether a named type is declared in the spoke or hub package.
func (p *pairer) local(n *types.Named) bool {
	pkg := n.Obj().Pkg()
	return pkg != nil && (pkg.Path() == p.spoke.Package.PkgPath || pkg.Path() == p.hub.Package.PkgPath)
}

// conv classifies the conversion from one type to another.
func (p *pairer) conv(from, to types.Type) *Conv {
	c := &Conv{From: from, To: to}
	fromLocal := p.isLocal(from)
	switch {
	case types.Identical(from, to) && !fromLocal:
		if plain(from) {
			c.Kind = ConvAssign
		} else if p.m.hasDeepCopyInto(from) {
			c.Kind = ConvDeepCopy
		} else {
			return p.structural(c)
		}
		return c
	}
	fn, fromNamed := from.(*types.Named)
	tn, toNamed := to.(*types.Named)
	if fromNamed && toNamed {
		_, fs := fn.Underlying().(*types.Struct)
		_, ts := tn.Underlying().(*types.Struct)
		if fs && ts {
			if p.local(fn) && p.local(tn) && p.inSpoke(fn) != p.inSpoke(tn) {
				spoke, hub := fn, tn
				if !p.inSpoke(fn) {
					spoke, hub = tn, fn
				}
				c.Kind, c.Pair = ConvPair, p.pair(spoke, hub)
				return c
			}
			c.Kind, c.Reason = ConvManual, fmt.Sprintf("%s and %s are different types", p.qualified(from), p.qualified(to))
			return c
		}
	}
	return p.structural(c)
}

// structural classifies by underlying structure: basic, pointer, slice,
// array, map.
func (p *pairer) structural(c *Conv) *Conv {
	from, to := c.From, c.To
	switch fu := from.Underlying().(type) {
	case *types.Basic:
		if tu, ok := to.Underlying().(*types.Basic); ok && fu.Kind() == tu.Kind() {
			if types.Identical(from, to) {
				c.Kind = ConvAssign
			} else {
				c.Kind = ConvCast
			}
			return c
		}
	case *types.Pointer:
		if tu, ok := to.Underlying().(*types.Pointer); ok {
			c.Kind, c.Elem = ConvPointer, p.conv(fu.Elem(), tu.Elem())
			return c
		}
		if _, isPtr := to.Underlying().(*types.Pointer); !isPtr {
			c.Kind, c.Elem = ConvDeref, p.conv(fu.Elem(), to)
			if c.Elem.Kind == ConvManual {
				return c.Elem
			}
			return c
		}
	case *types.Slice:
		if tu, ok := to.Underlying().(*types.Slice); ok {
			c.Kind, c.Elem = ConvSlice, p.conv(fu.Elem(), tu.Elem())
			return c
		}
	case *types.Array:
		if tu, ok := to.Underlying().(*types.Array); ok && fu.Len() == tu.Len() {
			c.Kind, c.Elem = ConvArray, p.conv(fu.Elem(), tu.Elem())
			return c
		}
	case *types.Map:
		if tu, ok := to.Underlying().(*types.Map); ok {
			c.Kind, c.Key, c.Elem = ConvMap, p.conv(fu.Key(), tu.Key()), p.conv(fu.Elem(), tu.Elem())
			return c
		}
	}
	if tp, ok := to.Underlying().(*types.Pointer); ok {
		if _, isPtr := from.Underlying().(*types.Pointer); !isPtr {
			c.Kind, c.Elem = ConvAddr, p.conv(from, tp.Elem())
			if c.Elem.Kind == ConvManual {
				return c.Elem
			}
			return c
		}
	}
	c.Kind, c.Reason = ConvManual, fmt.Sprintf("%s and %s have no mechanical conversion", p.qualified(from), p.qualified(to))
	return c
}

func (p *pairer) inSpoke(n *types.Named) bool {
	return n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == p.spoke.Package.PkgPath
}

func (p *pairer) isLocal(t types.Type) bool {
	if n, ok := t.(*types.Named); ok {
		return p.local(n)
	}
	return false
}

func (p *pairer) qualified(t types.Type) string {
	return types.TypeString(t, func(pkg *types.Package) string {
		if pkg.Path() == p.spoke.Package.PkgPath {
			return p.spoke.Name
		}
		if pkg.Path() == p.hub.Package.PkgPath {
			return p.hub.Name
		}
		return pkg.Name()
	})
}

// plain reports whether values of t hold no references, so that assignment
// copies them completely.
func plain(t types.Type) bool {
	return plainSeen(t, map[types.Type]bool{})
}

func plainSeen(t types.Type, seen map[types.Type]bool) bool {
	if seen[t] {
		return true
	}
	seen[t] = true
	switch u := t.Underlying().(type) {
	case *types.Basic:
		return u.Kind() != types.UnsafePointer
	case *types.Array:
		return plainSeen(u.Elem(), seen)
	case *types.Struct:
		for i := 0; i < u.NumFields(); i++ {
			if !plainSeen(u.Field(i).Type(), seen) {
				return false
			}
		}
		return true
	}
	return false
}

// findManual looks for hand-written Convert_ functions in the spoke package
// and checks their signatures.
func (p *pairer) findManual() {
	scope := p.spoke.Package.Types.Scope()
	for _, tp := range p.order {
		for _, toHub := range []bool{true, false} {
			name := tp.FuncName(toHub)
			obj := scope.Lookup(name)
			if obj == nil {
				continue
			}
			fn, ok := obj.(*types.Func)
			if !ok || !p.validSignature(fn, tp, toHub) {
				p.diags.Errorf(obj.Pos(), "%s has the wrong signature: want %s", name, Signature(tp, toHub))
				tp.wrongSignature[dirIndex(toHub)] = true
				continue
			}
			if toHub {
				tp.ManualToHub = fn
			} else {
				tp.ManualToSpoke = fn
			}
		}
	}
}

// Signature is the exact declaration a hand-written conversion must have, as
// written in the spoke package.
func Signature(tp *TypePair, toHub bool) string {
	in, out := tp.Spoke.Obj().Name(), tp.HubVersion.Package.Name+"."+tp.Hub.Obj().Name()
	if !toHub {
		in, out = out, in
	}
	return fmt.Sprintf("func %s(in *%s, out *%s, s conversion.Scope) error", tp.FuncName(toHub), in, out)
}

func (p *pairer) validSignature(fn *types.Func, tp *TypePair, toHub bool) bool {
	sig := fn.Type().(*types.Signature)
	in, out := types.Type(tp.Spoke), types.Type(tp.Hub)
	if !toHub {
		in, out = out, in
	}
	if sig.Recv() != nil || sig.Params().Len() != 3 || sig.Results().Len() != 1 {
		return false
	}
	scope, ok := sig.Params().At(2).Type().(*types.Named)
	return types.Identical(sig.Params().At(0).Type(), types.NewPointer(in)) &&
		types.Identical(sig.Params().At(1).Type(), types.NewPointer(out)) &&
		ok && scope.Obj().Name() == "Scope" && scope.Obj().Pkg() != nil && scope.Obj().Pkg().Path() == "k8s.io/apimachinery/pkg/conversion" &&
		types.Identical(sig.Results().At(0).Type(), types.Universe.Lookup("error").Type())
}

// settleLossiness marks pair directions that can drop information, until
// nothing changes (pairs can refer to each other in cycles).
func (p *pairer) settleLossiness() {
	for changed := true; changed; {
		changed = false
		for _, tp := range p.order {
			toHub := tp.OptOut || tp.ManualToHub != nil || len(tp.SpokeOnly) > 0
			toSpoke := tp.OptOut || tp.ManualToSpoke != nil || len(tp.HubOnly) > 0 || len(tp.NestedHubOnly) > 0 || len(tp.MovedThrough) > 0
			for _, m := range tp.Mappings {
				toHub = toHub || m.OptOut || m.ToHub.Lossy(true)
				toSpoke = toSpoke || m.OptOut || m.ToSpoke.Lossy(false)
			}
			if toHub != tp.LossyToHub || toSpoke != tp.LossyToSpoke {
				tp.LossyToHub, tp.LossyToSpoke, changed = toHub, toSpoke, true
			}
		}
	}
	for changed := true; changed; {
		changed = false
		for _, tp := range p.order {
			toHub := tp.OptOut || tp.ManualToHub != nil
			toSpoke := tp.OptOut || tp.ManualToSpoke != nil
			for _, m := range tp.Mappings {
				if m.OptOut || len(m.HubPath) == 0 {
					toHub, toSpoke = true, true
				}
				toHub = toHub || m.ToHub.dynamic(true)
				toSpoke = toSpoke || m.ToSpoke.dynamic(false)
			}
			if toHub != tp.DynamicToHub || toSpoke != tp.DynamicToSpoke {
				tp.DynamicToHub, tp.DynamicToSpoke, changed = toHub, toSpoke, true
			}
		}
	}
}

// dynamic reports whether the conversion, or a part of it, can only be
// checked for losses by converting back.
func (c *Conv) dynamic(toHub bool) bool {
	return c.find(func(c *Conv) (bool, bool) {
		switch c.Kind {
		case ConvManual:
			return true, true
		case ConvPair:
			return c.Pair.Dynamic(toHub), true
		}
		return false, false
	}) != nil
}

// Dynamic returns the direction's flag.
func (p *TypePair) Dynamic(toHub bool) bool {
	if toHub {
		return p.DynamicToHub
	}
	return p.DynamicToSpoke
}

// Lossy returns the direction's flag.
func (p *TypePair) Lossy(toHub bool) bool {
	if toHub {
		return p.LossyToHub
	}
	return p.LossyToSpoke
}
