package model

import (
	"go/types"

	"sigs.k8s.io/controller-tools/pkg/loader"

	"github.com/crdforge/crdforge/internal/diag"
)

// controller-tools' deepcopy generator (v0.23, as controller-gen runs it)
// asks whether a type has DeepCopy or DeepCopyInto through
// types.LookupFieldOrMethod, which finds T's methods on *T too. Where the
// type it asks about is itself a pointer (a slice's element, a map's value,
// a pointer's target), it then calls the method as if the value were a T:
//
//	[]*resource.Quantity   (*in)[i].DeepCopyInto(&(*out)[i])   **Quantity for *Quantity: does not compile
//	**metav1.Time          *out = (*in).DeepCopy()              a method of **Time: does not compile
//	map[string]*resource.Quantity
//	                       x := val.DeepCopy(); (*out)[key] = &x   a nil value panics
//
// and the same wherever such a value is nested (a slice of them in a map, a
// named slice of them inlined into a field's copy). The functions below
// find these places by following that generator's own decisions
// (genDeepCopyIntoBlock and the functions it calls, in traverse.go), so
// that crdforge replaces its output there and nowhere else: everywhere else
// the file stays controller-gen's, byte for byte.

// CopyRepair is a struct field whose copy controller-tools' deepcopy
// generator writes wrong (above): crdforge writes that field's statement of
// the type's DeepCopyInto itself, the rest of the method is controller-tools'.
type CopyRepair struct {
	// Type is the struct whose DeepCopyInto copies the field; Field the
	// field's name.
	Type, Field string
	// Copy is how the field copies: nil stays nil, each non-nil pointer
	// gets a copy of its target.
	Copy *Copy
}

// copyRepairs lists, by type name then field order, the fields of root's
// structs whose copy controller-tools gets wrong. The types crdforge copies
// whole (own) and those whose DeepCopyInto their author wrote are not
// controller-tools' to copy, and have none.
func (b *Builder) copyRepairs(root *loader.Package, own []*OwnCopy, diags *diag.List) []*CopyRepair {
	if root.Types == nil {
		return nil
	}
	owned := map[string]bool{}
	for _, oc := range own {
		owned[oc.Name] = true
	}
	var out []*CopyRepair
	scope := root.Types.Scope()
	for _, name := range scope.Names() {
		tn, ok := scope.Lookup(name).(*types.TypeName)
		if !ok || tn.IsAlias() || owned[name] {
			continue
		}
		n, ok := tn.Type().(*types.Named)
		if !ok || !b.generatesDeepCopy(n) || hasOwnDeepCopy(n) {
			continue
		}
		s, ok := n.Underlying().(*types.Struct)
		if !ok {
			continue
		}
		c := &copier{b: b, diags: diags, owner: name}
		for f := range s.Fields() {
			if ctMiscopiesField(f.Type()) {
				out = append(out, &CopyRepair{Type: name, Field: f.Name(), Copy: c.copyOf(f.Type(), f.Pos())})
			}
		}
	}
	return out
}

// ctMiscopiesField reports whether controller-tools' copy of a struct field
// of type t is wrong (its genStructDeepCopy).
func ctMiscopiesField(t types.Type) bool {
	if ctSeesDeepCopy(t) {
		_, isPtr := t.(*types.Pointer)
		return isPtr && ctMiscopies(t)
	}
	return passesByReference(eventualUnderlying(t)) && ctMiscopies(t)
}

// ctMiscopies reports whether controller-tools' copy of *in into *out, both
// of type t, by t's eventual underlying type, is wrong (its
// genDeepCopyIntoBlock). A struct's is judged field by field
// (ctMiscopiesField), and only a struct type's own method copies a struct
// that way: one reached from a field is copied by its DeepCopyInto.
func ctMiscopies(t types.Type) bool {
	last := eventualUnderlying(t)
	if _, isPtr := last.(*types.Pointer); !isPtr && ctSeesDeepCopy(t) {
		return false // *out = in.DeepCopy()
	}
	switch last := last.(type) {
	case *types.Map:
		return ctMiscopiesMapValue(last.Elem())
	case *types.Slice:
		return ctMiscopiesElem(last.Elem())
	case *types.Pointer:
		return ctMiscopiesElem(last.Elem())
	}
	return false
}

// ctMiscopiesElem reports whether controller-tools' copy of a slice's
// element or a pointer's target of type t is wrong (genSliceDeepCopy,
// genPointerDeepCopy): it calls a method it found through t as if t were
// the method's type, wrong when t is a pointer.
func ctMiscopiesElem(t types.Type) bool {
	if ctSeesDeepCopy(t) {
		_, isPtr := t.(*types.Pointer)
		return isPtr
	}
	last := eventualUnderlying(t)
	return !ctShallow(last) && passesByReference(last) && ctMiscopies(t)
}

// ctMiscopiesMapValue reports whether controller-tools' copy of a map value
// of type t is wrong (genMapDeepCopy): a pointer whose target's DeepCopy
// returns a value is copied as x := val.DeepCopy(), which dereferences a nil
// val. A pointer's DeepCopy (val.DeepCopy() as it is) returns nil for nil.
func ctMiscopiesMapValue(t types.Type) bool {
	hasCopy, copyOnPtr := ctDeepCopy(t)
	if hasCopy || ctDeepCopyInto(t) {
		_, isPtr := t.(*types.Pointer)
		resultIsPtr := copyOnPtr
		if !hasCopy {
			resultIsPtr = ctResultIsPointer(t)
		}
		return isPtr && !resultIsPtr
	}
	return !ctShallow(t) && passesByReference(eventualUnderlying(t)) && ctMiscopies(t)
}

// ctSeesDeepCopy is controller-tools' hasAnyDeepCopyMethod: the load hides
// generated files, so it sees the methods authors wrote (and those of
// another package's files that are not generated).
func ctSeesDeepCopy(t types.Type) bool {
	hasCopy, _ := ctDeepCopy(t)
	return hasCopy || ctDeepCopyInto(t)
}

// ctDeepCopy is controller-tools' hasDeepCopyMethod: whether t, or *t, has
// a DeepCopy() of its own (not an embedded field's) returning its receiver's
// type, and whether that receiver is a pointer.
func ctDeepCopy(t types.Type) (has, onPtr bool) {
	obj, index, _ := types.LookupFieldOrMethod(t, true, nil, "DeepCopy")
	if obj == nil || len(index) != 1 {
		return false, false
	}
	sig, ok := obj.Type().(*types.Signature)
	if !ok || sig.Params().Len() != 0 || sig.Results().Len() != 1 {
		return false, false
	}
	result := sig.Results().At(0).Type()
	if recv, isPtr := sig.Recv().Type().(*types.Pointer); isPtr {
		res, resIsPtr := result.(*types.Pointer)
		return resIsPtr && recv.Elem() == res.Elem(), resIsPtr && recv.Elem() == res.Elem()
	}
	return result == sig.Recv().Type(), false
}

// ctDeepCopyInto is controller-tools' hasDeepCopyIntoMethod: whether t, or
// *t, has a DeepCopyInto of its own into a pointer to its receiver's type.
func ctDeepCopyInto(t types.Type) bool {
	obj, index, _ := types.LookupFieldOrMethod(t, true, nil, "DeepCopyInto")
	if obj == nil || len(index) != 1 {
		return false
	}
	sig, ok := obj.Type().(*types.Signature)
	if !ok || sig.Params().Len() != 1 || sig.Results().Len() != 0 {
		return false
	}
	param, isPtr := sig.Params().At(0).Type().(*types.Pointer)
	if !isPtr {
		return false
	}
	if recv, recvIsPtr := sig.Recv().Type().(*types.Pointer); recvIsPtr {
		return param.Elem() == recv.Elem()
	}
	return sig.Recv().Type() == param.Elem()
}

// ctResultIsPointer is controller-tools' resultWillBePointer for a type
// without a DeepCopy: whether the DeepCopy its generator writes returns a
// pointer (a struct's or a basic type's does, a map's or a slice's not).
func ctResultIsPointer(t types.Type) bool {
	switch t := t.(type) {
	case *types.Pointer:
		return ctResultIsPointer(t.Elem())
	case *types.Named:
		return ctResultIsPointer(t.Underlying())
	case *types.Map, *types.Slice:
		return false
	}
	return true
}

// ctShallow is controller-tools' fineToShallowCopy: assignment copies t
// deeply.
func ctShallow(t types.Type) bool {
	switch t := t.(type) {
	case *types.Basic:
		return t.Kind() != types.Invalid && t.Kind() != types.UnsafePointer
	case *types.Named:
		return ctShallow(t.Underlying())
	case *types.Struct:
		for f := range t.Fields() {
			if !ctShallow(f.Type()) {
				return false
			}
		}
		return true
	}
	return false
}

// passesByReference is controller-tools' passesByReference.
func passesByReference(t types.Type) bool {
	switch t.(type) {
	case *types.Slice, *types.Map, *types.Pointer:
		return true
	}
	return false
}

// eventualUnderlying is controller-tools' eventualUnderlyingType.
func eventualUnderlying(t types.Type) types.Type {
	for {
		u := t.Underlying()
		if u == t {
			return t
		}
		t = u
	}
}
