package model

import (
	"go/types"
)

// ConvKind says how a value of one type becomes a value of another.
type ConvKind int

const (
	// ConvAssign copies a value that holds no references: out = in.
	ConvAssign ConvKind = iota
	// ConvCast converts between basic types of the same kind, such as an
	// enum across versions, or between two structs of other modules that
	// one JSON shape declares twice (plan.sameShape): out = T(in).
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
	// another package (generators/plan/samelayout.go): *(*T)(unsafe.Pointer(&in)).
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
	// whose generated Convert_ ConvFunc calls (plan.useGenerated).
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

// Find returns the first part of the conversion, itself or an element or
// key inside it, where at says true, searching the parts at decides nothing
// about (decided false).
func (c *Conv) Find(at func(*Conv) (found, decided bool)) *Conv {
	if found, decided := at(c); decided {
		if found {
			return c
		}
		return nil
	}
	switch c.Kind {
	case ConvPointer, ConvDeref, ConvAddr, ConvSlice, ConvArray:
		return c.Elem.Find(at)
	case ConvMap:
		if k := c.Key.Find(at); k != nil {
			return k
		}
		return c.Elem.Find(at)
	}
	return nil
}

// Lossy reports whether the conversion can drop information: a nil pointer
// that becomes a zero value, a lossy pair direction, or anything that needs
// a hand-written function.
func (c *Conv) Lossy() bool {
	return c.Find(func(c *Conv) (bool, bool) {
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
	m := c.Find(func(c *Conv) (bool, bool) { return c.Kind == ConvManual, c.Kind == ConvManual })
	if m == nil {
		return false, ""
	}
	return true, m.Reason
}

// SameMemory reports whether a value converts by being read as the
// destination type: the types are the same (and no hand-written function
// converts them), basic types of one kind (an enum across versions), two
// declarations of one struct (plan.sameShape, plan.sameLayout), pairs that share a
// layout, or pointers, slices, arrays and maps of such. The result of such
// a conversion shares the source's memory.
func (c *Conv) SameMemory() bool {
	return c.Find(func(c *Conv) (found, decided bool) {
		switch c.Kind {
		case ConvAssign, ConvDeepCopy:
			return false, true
		case ConvCast:
			_, isStruct := c.From.Underlying().(*types.Struct)
			return !isStruct && !SameBasic(c.From, c.To), true
		case ConvPair:
			return !c.Dir.SameLayout, true
		case ConvSameLayout:
			return false, true
		case ConvPointer, ConvSlice, ConvArray, ConvMap:
			return false, false // as their elements and keys
		}
		// Deref, Addr: a pointer on one side only; Func, Manual: a
		// function converts.
		return true, true
	}) == nil
}

// SameBasic reports whether two types are basic types of the same kind: an
// int32 read as an int64 would not be.
func SameBasic(a, b types.Type) bool {
	ab, ok1 := a.Underlying().(*types.Basic)
	bb, ok2 := b.Underlying().(*types.Basic)
	return ok1 && ok2 && ab.Kind() == bb.Kind()
}
