package plan

import (
	"go/types"
)

// A CRD-only run checks types as controller-gen does (Options.PartialTypes):
// only what schemas can reach. A type outside the API packages may then hold
// a field of a package never checked, which go/types leaves invalid: the
// unexported inf.Dec inside resource.Quantity, an interface's methods.
// Settling strategies looks into such types in three places only: whether a
// shared type without DeepCopyInto copies by assignment (plain: an invalid
// type reads as plain, where the complete one might need a function),
// whether two types of other packages have one shape (sameShape), and
// whether two structs are same-layout copies (alike, samelayout.go). Where one of them would
// read an invalid type, the model notes it (lookInto) and the run loads
// again, completely, rather than decide on it. (metav1.Time holds a
// time.Time the partial load never checks, but has DeepCopyInto: copied
// either way; and two fields of type metav1.Time are same-layout copies without a look
// inside.)

// lookInto notes whether deciding on t, walked as reaches walks it, would
// read a type the partial load left invalid.
func (pl *planner) lookInto(t types.Type, reaches func(types.Type) bool) {
	if pl.opts.PartialTypes && !pl.incomplete && reaches(t) {
		pl.incomplete = true
	}
}

// plainReachesInvalid reports whether plain(t) reads an invalid type: it
// looks through named types, arrays and struct fields, and stops at
// anything else.
func plainReachesInvalid(t types.Type) bool {
	return reachesInvalid(t, plainWalk, map[types.Type]bool{})
}

// shapeReachesInvalid reports whether comparing named's structure, as
// types.IdenticalIgnoreTags does in sameShape, reads an invalid type: it
// looks through every type constructor, and stops at other named types,
// which compare by identity.
func shapeReachesInvalid(named types.Type) bool {
	return identicalReachesInvalid(named.Underlying())
}

// identicalReachesInvalid reports whether types.Identical, comparing t with
// another type, reads an invalid type: the walk of shapeReachesInvalid from
// t itself.
func identicalReachesInvalid(t types.Type) bool {
	return reachesInvalid(t, shapeWalk, map[types.Type]bool{})
}

// isInvalid reports whether t, or what a named t stands for, is a type
// the partial load left invalid.
func isInvalid(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Kind() == types.Invalid
}

type walkMode int

const (
	plainWalk walkMode = iota
	shapeWalk
)

func reachesInvalid(t types.Type, mode walkMode, seen map[types.Type]bool) bool {
	if t == nil || seen[t] {
		return false
	}
	seen[t] = true
	walk := func(t types.Type) bool { return reachesInvalid(t, mode, seen) }
	switch t := types.Unalias(t).(type) {
	case *types.Basic:
		return t.Kind() == types.Invalid
	case *types.Named:
		return mode != shapeWalk && walk(t.Underlying())
	case *types.Array:
		return walk(t.Elem())
	case *types.Struct:
		for i := range t.NumFields() {
			if walk(t.Field(i).Type()) {
				return true
			}
		}
		return false
	}
	if mode == plainWalk {
		return false
	}
	switch t := t.(type) {
	case *types.Pointer:
		return walk(t.Elem())
	case *types.Slice:
		return walk(t.Elem())
	case *types.Chan:
		return walk(t.Elem())
	case *types.Map:
		return walk(t.Key()) || walk(t.Elem())
	case *types.Signature:
		return walk(t.Params()) || walk(t.Results())
	case *types.Tuple:
		for i := range t.Len() {
			if walk(t.At(i).Type()) {
				return true
			}
		}
	case *types.Interface:
		for i := range t.NumMethods() {
			if walk(t.Method(i).Type()) {
				return true
			}
		}
	}
	return false
}
