package plan

import (
	"fmt"
	"go/types"
	"reflect"

	"github.com/crdforge/crdforge/generators/model"
)

// pairDirs lists the pair directions the conversion goes through, itself
// or its elements and keys (not what those pairs convert in turn).
func pairDirs(c *model.Conv) []*model.Direction {
	var out []*model.Direction
	c.Find(func(c *model.Conv) (bool, bool) {
		if c.Kind == model.ConvPair {
			out = append(out, c.Dir)
		}
		return false, c.Kind == model.ConvPair
	})
	return out
}

// funcDirs lists the pair directions whose Convert_ the conversion calls:
// its pairs' and, unlike pairDirs, the generated functions of other pairs
// it calls.
func funcDirs(c *model.Conv) []*model.Direction {
	var out []*model.Direction
	c.Find(func(c *model.Conv) (bool, bool) {
		switch {
		case c.Kind == model.ConvPair:
			out = append(out, c.Dir)
		case c.Kind == model.ConvFunc && c.Via != nil:
			out = append(out, c.Via)
		}
		return false, c.Kind == model.ConvPair || c.Kind == model.ConvFunc
	})
	return out
}

// roundTrip reports whether the conversion, or a part of it, can only be
// checked for losses by converting back.
func roundTrip(c *model.Conv) bool {
	return c.Find(func(c *model.Conv) (bool, bool) {
		switch c.Kind {
		case model.ConvManual, model.ConvFunc:
			return true, true
		case model.ConvPair:
			return c.Dir.Loss == model.LossRoundTrip, true
		}
		return false, false
	}) != nil
}

// classifier decides how values convert between a spoke package and its
// hub's.
type classifier struct {
	spoke, hub *model.Version
	// deepCopy reports whether a type outside both packages has DeepCopyInto.
	deepCopy func(types.Type) bool
	// pair returns the pair of a spoke and a hub struct, creating it.
	pair func(spoke, hub *types.Named) *model.TypePair
	// funcs are the hand-written Convert_ functions of the spoke and hub
	// packages, by the types they convert from and to.
	funcs map[[2]string]*types.Func
	// lookInto is told of every type outside both packages whose structure
	// decides a conversion, and how the decision walks it.
	lookInto func(t types.Type, reaches func(types.Type) bool)
	// generated, once every pair is known (see useGenerated), finds the
	// direction of another pairer whose generated Convert_ converts one
	// struct into the other, for structs not both of the spoke and hub
	// packages; nil before.
	generated func(from, to *types.Named) *model.Direction
	// versionPackage reports whether a package is a version package of the
	// model, one some kind has a version in.
	versionPackage func(*types.Package) bool
}

// conv classifies the conversion from one type to another.
//
// An alias (type GatewaySpec = v1.GatewaySpec, as Gateway API's older
// versions share the newest one's types) is the type it stands for.
func (k *classifier) conv(from, to types.Type) *model.Conv {
	from, to = types.Unalias(from), types.Unalias(to)
	c := &model.Conv{From: from, To: to}
	if len(k.funcs) > 0 { // funcKey prints both types: only when there is a function to find
		if fn := k.funcs[funcKey(from, to)]; fn != nil && !k.paired(from, to) {
			c.Kind, c.Func = model.ConvFunc, fn
			return c
		}
	}
	if types.Identical(from, to) {
		// One type on both sides, from another module or shared by the two
		// versions (a spoke's field of the hub package's type, through an
		// alias or not): a copy converts it.
		switch {
		case plain(from):
			c.Kind = model.ConvAssign
			if !k.deepCopy(from) {
				// Had a type left invalid made from look plain, it
				// could have needed a function instead.
				k.look(from, plainReachesInvalid)
			}
		case k.deepCopy(from):
			c.Kind = model.ConvDeepCopy
		default:
			c = k.structural(c)
			if _, ok := namedStruct(from); ok && c.Kind == model.ConvManual {
				c.Reason = fmt.Sprintf("%s holds references and has no DeepCopyInto to copy it with", k.qualified(from))
			}
		}
		return c
	}
	fn, fromNamed := from.(*types.Named)
	tn, toNamed := to.(*types.Named)
	if fromNamed && toNamed {
		_, fs := fn.Underlying().(*types.Struct)
		_, ts := tn.Underlying().(*types.Struct)
		if fs && ts {
			if k.local(fn) && k.local(tn) && k.inSpoke(fn) != k.inSpoke(tn) {
				if k.inSpoke(fn) {
					c.Kind, c.Dir = model.ConvPair, k.pair(fn, tn).ToHub
				} else {
					c.Kind, c.Dir = model.ConvPair, k.pair(tn, fn).ToSpoke
				}
				return c
			}
			if !k.local(fn) && !k.local(tn) {
				k.look(fn, shapeReachesInvalid)
				k.look(tn, shapeReachesInvalid)
				if sameShape(fn, tn) {
					c.Kind = model.ConvCast
					return c
				}
			}
			if k.sameLayout(fn, tn) {
				c.Kind = model.ConvSameLayout
				return c
			}
			if k.generated != nil {
				if d := k.generated(fn, tn); d != nil {
					c.Kind, c.Via = model.ConvFunc, d
					return c
				}
			}
			c.Kind, c.Reason = model.ConvManual, fmt.Sprintf("%s and %s are different types", k.qualified(from), k.qualified(to))
			return c
		}
	}
	return k.structural(c)
}

func (k *classifier) look(t types.Type, reaches func(types.Type) bool) {
	if k.lookInto != nil {
		k.lookInto(t, reaches)
	}
}

// paired reports whether from and to are a spoke and a hub struct (in
// either order): they convert as a pair, which takes a hand-written Convert_
// of its own and still gets an autoConvert_ to call.
func (k *classifier) paired(from, to types.Type) bool {
	fn, ok1 := namedStruct(from)
	tn, ok2 := namedStruct(to)
	return ok1 && ok2 && k.local(fn) && k.local(tn) && k.inSpoke(fn) != k.inSpoke(tn)
}

func funcKey(from, to types.Type) [2]string {
	return [2]string{types.TypeString(types.Unalias(from), nil), types.TypeString(types.Unalias(to), nil)}
}

// structural classifies by underlying structure: basic, pointer, slice,
// array, map.
func (k *classifier) structural(c *model.Conv) *model.Conv {
	from, to := c.From, c.To
	switch fu := from.Underlying().(type) {
	case *types.Basic:
		// Integers of different sizes cast too: a value the destination
		// cannot hold fails the conversion (FieldConv.Guard), never wraps.
		if tu, ok := to.Underlying().(*types.Basic); ok && (fu.Kind() == tu.Kind() || bothIntegers(fu, tu)) {
			c.Kind = model.ConvCast
			if types.Identical(from, to) {
				c.Kind = model.ConvAssign
			}
			return c
		}
	case *types.Pointer:
		if tu, ok := to.Underlying().(*types.Pointer); ok {
			c.Kind, c.Elem = model.ConvPointer, k.conv(fu.Elem(), tu.Elem())
			return c
		}
		c.Kind, c.Elem = model.ConvDeref, k.conv(fu.Elem(), to)
		return liftManual(c)
	case *types.Slice:
		if tu, ok := to.Underlying().(*types.Slice); ok {
			c.Kind, c.Elem = model.ConvSlice, k.conv(fu.Elem(), tu.Elem())
			return c
		}
	case *types.Array:
		if tu, ok := to.Underlying().(*types.Array); ok && fu.Len() == tu.Len() {
			c.Kind, c.Elem = model.ConvArray, k.conv(fu.Elem(), tu.Elem())
			return c
		}
	case *types.Map:
		if tu, ok := to.Underlying().(*types.Map); ok {
			c.Kind, c.Key, c.Elem = model.ConvMap, k.conv(fu.Key(), tu.Key()), k.conv(fu.Elem(), tu.Elem())
			return c
		}
	}
	if tp, ok := to.Underlying().(*types.Pointer); ok {
		c.Kind, c.Elem = model.ConvAddr, k.conv(from, tp.Elem())
		return liftManual(c)
	}
	c.Kind, c.Reason = model.ConvManual, fmt.Sprintf("%s and %s have no mechanical conversion", k.qualified(from), k.qualified(to))
	return c
}

// sameShape reports whether two named structs, each declared outside the
// spoke and hub packages, are one declaration made twice: the same fields
// in the same order, of identical types, under the same JSON names (Go tags
// aside, which protobuf numbers may tell apart). An API type graduated
// unchanged is that (admissionregistration's v1alpha1 and v1
// MatchCondition, which Kyverno's v1 and v2beta1 rules hold): Go converts
// one into the other, with the same JSON on both sides.
func sameShape(a, b *types.Named) bool {
	as, ok1 := a.Underlying().(*types.Struct)
	bs, ok2 := b.Underlying().(*types.Struct)
	if !ok1 || !ok2 || !types.IdenticalIgnoreTags(as, bs) {
		return false
	}
	for i := range as.NumFields() {
		if reflect.StructTag(as.Tag(i)).Get("json") != reflect.StructTag(bs.Tag(i)).Get("json") {
			return false
		}
	}
	return true
}

func bothIntegers(a, b *types.Basic) bool {
	return a.Info()&types.IsInteger != 0 && b.Info()&types.IsInteger != 0
}

// liftManual reports a pointer conversion whose target has no mechanical
// conversion as the target's problem, with its reason.
func liftManual(c *model.Conv) *model.Conv {
	if c.Elem.Kind == model.ConvManual {
		return c.Elem
	}
	return c
}

// local reports whether a named type is declared in the spoke or hub package.
func (k *classifier) local(n *types.Named) bool {
	pkg := n.Obj().Pkg()
	return pkg != nil && (pkg.Path() == k.spoke.Package.PkgPath || pkg.Path() == k.hub.Package.PkgPath)
}

func (k *classifier) inSpoke(n *types.Named) bool {
	return n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == k.spoke.Package.PkgPath
}

// qualified names a type for messages, a version package by its version.
// Another package is named by its import path when its name could be taken
// for one of the pair's: shared types in common/v1beta1 and common/v1
// (Elastic Cloud on Kubernetes keeps its kinds' shared types so) would read
// "v1beta1.Endpoint and v1.Endpoint", as if the spoke's and the hub's own.
func (k *classifier) qualified(t types.Type) string {
	return types.TypeString(t, func(pkg *types.Package) string {
		switch pkg.Path() {
		case k.spoke.Package.PkgPath:
			return k.spoke.Name
		case k.hub.Package.PkgPath:
			return k.hub.Name
		}
		switch pkg.Name() {
		case k.spoke.Name, k.hub.Name, k.spoke.Package.Name, k.hub.Package.Name:
			return pkg.Path()
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
