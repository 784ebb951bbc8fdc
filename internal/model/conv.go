package model

import (
	"fmt"
	"go/types"
	"reflect"
)

// ConvKind says how a value of one type becomes a value of another.
type ConvKind int

const (
	// ConvAssign copies a value that holds no references: out = in.
	ConvAssign ConvKind = iota
	// ConvCast converts between basic types of the same kind, such as an
	// enum across versions, or between two structs of other modules that
	// one JSON shape declares twice (sameShape): out = T(in).
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
	// ConvSlice converts element by element; nil stays nil.
	ConvSlice
	// ConvArray converts element by element.
	ConvArray
	// ConvMap converts key and value of every entry; nil stays nil.
	ConvMap
	// ConvManual has no mechanical conversion: a hand-written function must
	// convert the enclosing type.
	ConvManual
	// ConvFunc converts through a Convert_ function between types that are
	// not a pair (different names, or a type of another package such as
	// metav1.Condition): Func, hand-written, or Via, generated for another
	// spoke and hub package.
	ConvFunc
	// ConvSameLayout reads a struct as its same-layout copy, the struct declared in
	// another package (samelayout.go): *(*T)(unsafe.Pointer(&in)).
	ConvSameLayout
)

// Conv is how one value converts to another.
type Conv struct {
	Kind     ConvKind
	From, To types.Type
	// Elem converts pointer targets, slice and array elements, map values;
	// Key converts map keys.
	Elem, Key *Conv
	// Dir is the pair direction ConvPair converts through.
	Dir *Direction
	// Func is the hand-written function ConvFunc calls.
	Func *types.Func
	// Via is, when Func is not set, the direction of another pairer's pair
	// whose generated Convert_ ConvFunc calls (see useGenerated).
	Via *Direction
	// Reason says why a ConvManual conversion is not mechanical.
	Reason string
}

// Callee is the package path and name of the function a ConvFunc
// conversion calls: the hand-written Func, or Via's generated Convert_,
// which its pair's spoke package holds.
func (c *Conv) Callee() (path, name string) {
	if c.Via != nil {
		return c.Via.Pair.SpokeVersion.Package.PkgPath, c.Via.Func
	}
	return c.Func.Pkg().Path(), c.Func.Name()
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
// that becomes a zero value, a lossy pair direction, or anything that needs
// a hand-written function.
func (c *Conv) Lossy() bool {
	return c.find(func(c *Conv) (bool, bool) {
		switch c.Kind {
		case ConvDeref, ConvManual, ConvFunc:
			return true, true // a hand-written function may drop anything
		case ConvPair:
			return c.Dir.Lossy(), true
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

// pairDirs lists the pair directions the conversion goes through, itself
// or its elements and keys (not what those pairs convert in turn).
func (c *Conv) pairDirs() []*Direction {
	var out []*Direction
	c.find(func(c *Conv) (bool, bool) {
		if c.Kind == ConvPair {
			out = append(out, c.Dir)
		}
		return false, c.Kind == ConvPair
	})
	return out
}

// funcDirs lists the pair directions whose Convert_ the conversion calls:
// its pairs' and, unlike pairDirs, the generated functions of other pairs
// it calls.
func (c *Conv) funcDirs() []*Direction {
	var out []*Direction
	c.find(func(c *Conv) (bool, bool) {
		switch {
		case c.Kind == ConvPair:
			out = append(out, c.Dir)
		case c.Kind == ConvFunc && c.Via != nil:
			out = append(out, c.Via)
		}
		return false, c.Kind == ConvPair || c.Kind == ConvFunc
	})
	return out
}

// roundTrip reports whether the conversion, or a part of it, can only be
// checked for losses by converting back.
func (c *Conv) roundTrip() bool {
	return c.find(func(c *Conv) (bool, bool) {
		switch c.Kind {
		case ConvManual, ConvFunc:
			return true, true
		case ConvPair:
			return c.Dir.Loss == LossRoundTrip, true
		}
		return false, false
	}) != nil
}

// classifier decides how values convert between a spoke package and its
// hub's.
type classifier struct {
	spoke, hub *Version
	// deepCopy reports whether a type outside both packages has DeepCopyInto.
	deepCopy func(types.Type) bool
	// pair returns the pair of a spoke and a hub struct, creating it.
	pair func(spoke, hub *types.Named) *TypePair
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
	generated func(from, to *types.Named) *Direction
	// versionPackage reports whether a package is a version package of the
	// model, one some kind has a version in.
	versionPackage func(*types.Package) bool
}

// conv classifies the conversion from one type to another.
//
// An alias (type GatewaySpec = v1.GatewaySpec, as Gateway API's older
// versions share the newest one's types) is the type it stands for.
func (k *classifier) conv(from, to types.Type) *Conv {
	from, to = types.Unalias(from), types.Unalias(to)
	c := &Conv{From: from, To: to}
	if len(k.funcs) > 0 { // funcKey prints both types: only when there is a function to find
		if fn := k.funcs[funcKey(from, to)]; fn != nil && !k.paired(from, to) {
			c.Kind, c.Func = ConvFunc, fn
			return c
		}
	}
	if types.Identical(from, to) {
		// One type on both sides, from another module or shared by the two
		// versions (a spoke's field of the hub package's type, through an
		// alias or not): a copy converts it.
		switch {
		case plain(from):
			c.Kind = ConvAssign
			if !k.deepCopy(from) {
				// Had a type left invalid made from look plain, it
				// could have needed a function instead.
				k.look(from, plainReachesInvalid)
			}
		case k.deepCopy(from):
			c.Kind = ConvDeepCopy
		default:
			c = k.structural(c)
			if _, ok := namedStruct(from); ok && c.Kind == ConvManual {
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
					c.Kind, c.Dir = ConvPair, k.pair(fn, tn).ToHub
				} else {
					c.Kind, c.Dir = ConvPair, k.pair(tn, fn).ToSpoke
				}
				return c
			}
			if !k.local(fn) && !k.local(tn) {
				k.look(fn, shapeReachesInvalid)
				k.look(tn, shapeReachesInvalid)
				if sameShape(fn, tn) {
					c.Kind = ConvCast
					return c
				}
			}
			if k.sameLayout(fn, tn) {
				c.Kind = ConvSameLayout
				return c
			}
			if k.generated != nil {
				if d := k.generated(fn, tn); d != nil {
					c.Kind, c.Via = ConvFunc, d
					return c
				}
			}
			c.Kind, c.Reason = ConvManual, fmt.Sprintf("%s and %s are different types", k.qualified(from), k.qualified(to))
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
func (k *classifier) structural(c *Conv) *Conv {
	from, to := c.From, c.To
	switch fu := from.Underlying().(type) {
	case *types.Basic:
		// Integers of different sizes cast too: a value the destination
		// cannot hold fails the conversion (FieldConv.Check), never wraps.
		if tu, ok := to.Underlying().(*types.Basic); ok && (fu.Kind() == tu.Kind() || bothIntegers(fu, tu)) {
			c.Kind = ConvCast
			if types.Identical(from, to) {
				c.Kind = ConvAssign
			}
			return c
		}
	case *types.Pointer:
		if tu, ok := to.Underlying().(*types.Pointer); ok {
			c.Kind, c.Elem = ConvPointer, k.conv(fu.Elem(), tu.Elem())
			return c
		}
		c.Kind, c.Elem = ConvDeref, k.conv(fu.Elem(), to)
		return liftManual(c)
	case *types.Slice:
		if tu, ok := to.Underlying().(*types.Slice); ok {
			c.Kind, c.Elem = ConvSlice, k.conv(fu.Elem(), tu.Elem())
			return c
		}
	case *types.Array:
		if tu, ok := to.Underlying().(*types.Array); ok && fu.Len() == tu.Len() {
			c.Kind, c.Elem = ConvArray, k.conv(fu.Elem(), tu.Elem())
			return c
		}
	case *types.Map:
		if tu, ok := to.Underlying().(*types.Map); ok {
			c.Kind, c.Key, c.Elem = ConvMap, k.conv(fu.Key(), tu.Key()), k.conv(fu.Elem(), tu.Elem())
			return c
		}
	}
	if tp, ok := to.Underlying().(*types.Pointer); ok {
		c.Kind, c.Elem = ConvAddr, k.conv(from, tp.Elem())
		return liftManual(c)
	}
	c.Kind, c.Reason = ConvManual, fmt.Sprintf("%s and %s have no mechanical conversion", k.qualified(from), k.qualified(to))
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
func liftManual(c *Conv) *Conv {
	if c.Elem.Kind == ConvManual {
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
