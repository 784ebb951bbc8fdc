package model

import (
	"go/token"
	"go/types"

	"sigs.k8s.io/controller-tools/pkg/loader"

	"github.com/crdforge/crdforge/internal/diag"
)

// OwnCopy is a type whose deepcopy methods crdforge writes itself, because
// controller-tools' deepcopy generator cannot: the type holds an unnamed
// struct type (map[string]struct{}, a slice of struct{ Key, Value string })
// in a map, slice, array or pointer, or in a field that needs more than an
// assignment. That generator names every type it allocates and cannot name
// those: it records "name requested for invalid type" with no position and
// writes no methods for the package. deepcopy-gen, which such projects use
// (Longhorn's older API version has a set as map[string]struct{}), copies
// them, and so does crdforge, with deepcopy-gen's semantics. A named map
// or slice whose copy controller-tools writes wrong (miscopy.go) is one too:
// its whole method is that copy.
type OwnCopy struct {
	// Name is the type's name; Pos its declaration.
	Name string
	Pos  token.Pos
	// PtrReceiver is set for a struct or an array; a map or a slice, passed
	// by reference already, gets value receivers.
	PtrReceiver bool
	// Object asks for DeepCopyObject too (+kubebuilder:object:root).
	Object bool
	// Copy is how *in copies into *out; nil when the type holds a value
	// no deepcopy can copy (an error says where), so that nothing prints it
	// and controller-tools still leaves it out.
	Copy *Copy
}

// CopyKind says how a value is deep-copied.
type CopyKind int

const (
	// CopyAssign copies a value that holds no references: assignment is a
	// deep copy.
	CopyAssign CopyKind = iota
	// CopyMethod copies through the type's DeepCopyInto (and, in a map
	// value, DeepCopy).
	CopyMethod
	// CopyPointer allocates a new Elem and copies the pointee; nil stays nil.
	CopyPointer
	// CopySlice makes a slice of the same length and copies each element;
	// nil stays nil.
	CopySlice
	// CopyMap makes a map of the same size and copies each value (keys are
	// comparable, so assigned); nil stays nil.
	CopyMap
	// CopyArray assigns the array, then copies each element that holds
	// references.
	CopyArray
	// CopyStruct assigns the struct, then copies each of Fields.
	CopyStruct
)

// Copy is how one value of Type deep-copies.
type Copy struct {
	Kind CopyKind
	// Type is the value's declared type, which make, new and var name.
	Type types.Type
	// Elem copies a pointer's target, and slice, array and map elements.
	Elem *Copy
	// Fields are a struct's fields that its assignment does not copy deeply,
	// and those of struct type whose assignment deepcopy-gen writes out.
	Fields []FieldCopy
	// Nilable says the value is a pointer, map or slice: nil is copied by
	// the assignment, and only a non-nil value needs more.
	Nilable bool
	// PtrDeepCopy says a CopyMethod type's DeepCopy returns a pointer (its
	// receiver is one): a struct or an array.
	PtrDeepCopy bool
}

// FieldCopy is how one struct field copies.
type FieldCopy struct {
	Name string
	Copy *Copy
}

// ownCopies lists, sorted by name, root's types that crdforge copies
// itself, with how. A type with a hand-written DeepCopyInto or DeepCopy is
// left out: controller-tools calls that one and looks at no field. A field
// crdforge cannot copy (an interface, a channel, a function) is an error
// there, as controller-tools reports it.
func (b *Builder) ownCopies(root *loader.Package, diags *diag.List) []*OwnCopy {
	if root.Types == nil {
		return nil
	}
	var out []*OwnCopy
	scope := root.Types.Scope()
	for _, name := range scope.Names() {
		tn, ok := scope.Lookup(name).(*types.TypeName)
		if !ok || tn.IsAlias() {
			continue
		}
		n, ok := tn.Type().(*types.Named)
		if !ok || !b.generatesDeepCopy(n) || hasOwnDeepCopy(n) {
			continue
		}
		if _, isPtr := n.Underlying().(*types.Pointer); isPtr {
			continue // a named pointer can have no methods
		}
		if !namesUnnamedStruct(n.Underlying(), true) && !miscopiedWhole(n) {
			continue
		}
		c := &copier{b: b, diags: diags, owner: name}
		oc := &OwnCopy{Name: name, Pos: tn.Pos(), Object: b.deepCopyObjects[root][name], Copy: c.body(n, tn.Pos())}
		if c.failed {
			oc.Copy = nil
		}
		switch n.Underlying().(type) {
		case *types.Struct, *types.Array:
			oc.PtrReceiver = true
		}
		out = append(out, oc)
	}
	return out
}

// hasOwnDeepCopy reports whether *n has a DeepCopyInto or a DeepCopy its
// author wrote.
func hasOwnDeepCopy(n *types.Named) bool {
	if declared, _ := ownDeepCopyInto(n); declared {
		return true
	}
	return types.NewMethodSet(types.NewPointer(n)).Lookup(n.Obj().Pkg(), "DeepCopy") != nil
}

// namesUnnamedStruct reports whether copying t, a type's underlying type or
// a field's type, goes through an unnamed struct type that controller-tools
// would have to name (to make, new or declare it) or call a method on: one
// inside a map, slice, array or pointer, or a field's own unnamed struct
// that holds references. Named types are not looked into: they have
// deepcopy methods of their own, or are another package's. A field's
// unnamed struct that holds no references (top is set) is assigned, which
// controller-tools does too.
func namesUnnamedStruct(t types.Type, top bool) bool {
	switch t := types.Unalias(t).(type) {
	case *types.Struct:
		if !top {
			return true
		}
		for f := range t.Fields() {
			if s, ok := types.Unalias(f.Type()).(*types.Struct); ok && !shallow(s) {
				return true
			}
			if namesUnnamedStruct(f.Type(), false) {
				return true
			}
		}
	case *types.Map:
		return namesUnnamedStruct(t.Key(), false) || namesUnnamedStruct(t.Elem(), false)
	case *types.Slice:
		return namesUnnamedStruct(t.Elem(), false)
	case *types.Array:
		return namesUnnamedStruct(t.Elem(), false)
	case *types.Pointer:
		return namesUnnamedStruct(t.Elem(), false)
	}
	return false
}

// shallow reports whether assigning a value of t is a deep copy: it holds
// no pointer, map, slice, interface, channel or function.
func shallow(t types.Type) bool {
	switch t := t.Underlying().(type) {
	case *types.Basic:
		return t.Kind() != types.UnsafePointer
	case *types.Struct:
		for f := range t.Fields() {
			if !shallow(f.Type()) {
				return false
			}
		}
		return true
	case *types.Array:
		return shallow(t.Elem())
	}
	return false
}

// copier decides how the values of one owner type copy.
type copier struct {
	b     *Builder
	diags *diag.List
	owner string
	// failed says a value of the owner cannot be copied.
	failed bool
}

// copyOf is how a value of t copies; pos is where to report a value that
// cannot be copied. A named type copies through its DeepCopyInto unless an
// assignment copies it (as controller-tools decides: an author's own method
// first, then assignment, then the generated method every struct gets).
func (c *copier) copyOf(t types.Type, pos token.Pos) *Copy {
	t = types.Unalias(t)
	n, named := t.(*types.Named)
	if named {
		if declared, wellTyped := ownDeepCopyInto(n); declared && wellTyped {
			return method(n)
		}
	}
	if shallow(t) {
		return &Copy{Kind: CopyAssign, Type: t}
	}
	if named {
		if _, isStruct := n.Underlying().(*types.Struct); isStruct || c.b.HasDeepCopyInto(n) {
			return method(n)
		}
	}
	return c.body(t, pos)
}

// body is how a value of t copies by its underlying type, never through a
// method of t: an owner's own DeepCopyInto is what body describes.
func (c *copier) body(t types.Type, pos token.Pos) *Copy {
	switch u := t.Underlying().(type) {
	case *types.Pointer:
		return &Copy{Kind: CopyPointer, Type: t, Nilable: true, Elem: c.copyOf(u.Elem(), pos)}
	case *types.Slice:
		return &Copy{Kind: CopySlice, Type: t, Nilable: true, Elem: c.copyOf(u.Elem(), pos)}
	case *types.Map:
		return &Copy{Kind: CopyMap, Type: t, Nilable: true, Elem: c.copyOf(u.Elem(), pos)}
	case *types.Array:
		return &Copy{Kind: CopyArray, Type: t, Elem: c.copyOf(u.Elem(), pos)}
	case *types.Struct:
		return c.structCopy(t, u, pos)
	}
	c.diags.Errorf(pos, "%s holds %s, which deepcopy cannot copy", c.owner, typeName(t)).
		Help("write %s's DeepCopyInto by hand (in a file of your own)", c.owner)
	c.failed = true
	return &Copy{Kind: CopyAssign, Type: t}
}

// typeName prints t for messages, the empty interface as any whatever the
// Go release that built crdforge (go/types prints it as interface{} from Go
// 1.27 on, as any before).
func typeName(t types.Type) string {
	if i, ok := types.Unalias(t).(*types.Interface); ok && i.Empty() {
		return "any"
	}
	return types.TypeString(t, (*types.Package).Name)
}

// method copies a named type through its deepcopy methods.
func method(n *types.Named) *Copy {
	cp := &Copy{Kind: CopyMethod, Type: n}
	switch n.Underlying().(type) {
	case *types.Pointer, *types.Map, *types.Slice:
		cp.Nilable = true
	case *types.Struct, *types.Array:
		cp.PtrDeepCopy = true
	}
	return cp
}

// structCopy copies a struct: the assignment, then each field that holds
// references, and each field of struct type (deepcopy-gen writes that
// assignment out).
func (c *copier) structCopy(t types.Type, s *types.Struct, pos token.Pos) *Copy {
	cp := &Copy{Kind: CopyStruct, Type: t}
	for f := range s.Fields() {
		fpos := f.Pos()
		if !fpos.IsValid() {
			fpos = pos
		}
		fc := c.copyOf(f.Type(), fpos)
		if fc.Kind == CopyAssign {
			if _, isStruct := types.Unalias(f.Type()).Underlying().(*types.Struct); !isStruct {
				continue
			}
		}
		cp.Fields = append(cp.Fields, FieldCopy{Name: f.Name(), Copy: fc})
	}
	return cp
}

// miscopiedWhole reports whether n is a named map or slice whose
// DeepCopyInto controller-tools writes wrong (miscopy.go). A struct's
// wrong fields are repaired one by one (copyRepairs), so that its other
// fields stay controller-tools'.
func miscopiedWhole(n *types.Named) bool {
	switch n.Underlying().(type) {
	case *types.Map, *types.Slice:
		return ctMiscopies(n)
	}
	return false
}
