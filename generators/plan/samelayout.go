package plan

import (
	"go/types"
	"reflect"
	"strings"

	"github.com/crdforge/crdforge/generators/model"
)

// An API may keep its own copy of another module's struct: Cluster API
// dropped its old API versions, so a provider whose v1alpha4 still holds
// v1alpha4 conditions declares Condition, Conditions and FailureDomainSpec
// itself, as they were, while its hub holds Cluster API's current ones. The
// two structs are one declaration made twice: the same fields, in the same
// order, under the same Go and JSON names, each converting into the other
// by a plain copy (their enums are each package's own string types). No
// Convert_ function converts them, and none is needed: conversion-gen reads
// one as the other through unsafe.Pointer, as it does any two types of one
// memory layout, and the provider's code relies on that.
//
// crdforge does the same for such same-layout copies, with the stricter test its own
// pairs pass (layout.go): field names and JSON names must match too, not
// only the layout, so two structs that merely look alike are never read as
// each other. Structs of two version packages of the model are left to
// their pairs, and to the Convert_ functions crdforge generates for them
// (generatedfuncs.go); same-layout copies need a struct from outside them.

// sameLayout reports whether two different named structs, not a spoke and hub
// pair, are declared alike (see above); one of them must be declared
// outside every version package of the model.
func (k *classifier) sameLayout(a, b *types.Named) bool {
	if k.versionPackage != nil && k.versionPackage(a.Obj().Pkg()) && k.versionPackage(b.Obj().Pkg()) {
		return false
	}
	return k.alike(a, b, map[[2]types.Type]bool{})
}

// alike reports whether a value of a converts into b by being read as b:
// identical types, basic types of one kind, structs with the same fields
// (by Go name, JSON name and embedding) each alike, or pointers, slices,
// arrays and maps of such. Types a hand-written Convert_ function converts
// are not alike, whatever their layout: the function exists because they
// differ in meaning (conversion-gen's rule too); nor are a spoke and a hub
// struct, which their own pair converts.
//
// A CRD-only run checks only what schemas reach (completeness.go), so a
// type of another module may hold types left invalid. alike tells the
// model when it reads one, and only then: two fields of one named type
// (metav1.Time on both sides) are alike whatever that type holds.
func (k *classifier) alike(a, b types.Type, seen map[[2]types.Type]bool) bool {
	a, b = types.Unalias(a), types.Unalias(b)
	if types.Identical(a, b) {
		// Identical compares named types by identity, but reads unnamed
		// ones down to their named and basic parts: an invalid part is
		// identical to any other.
		k.look(a, identicalReachesInvalid)
		return true
	}
	if isInvalid(a) || isInvalid(b) {
		k.look(a, func(types.Type) bool { return true })
		return false
	}
	key := [2]types.Type{a, b}
	if seen[key] {
		return true // a struct that holds itself: alike if the rest is
	}
	seen[key] = true
	if k.funcs[funcKey(a, b)] != nil || k.funcs[funcKey(b, a)] != nil || k.paired(a, b) {
		return false
	}
	switch au := a.Underlying().(type) {
	case *types.Basic:
		return model.SameBasic(a, b)
	case *types.Pointer:
		bu, ok := b.Underlying().(*types.Pointer)
		return ok && k.alike(au.Elem(), bu.Elem(), seen)
	case *types.Slice:
		bu, ok := b.Underlying().(*types.Slice)
		return ok && k.alike(au.Elem(), bu.Elem(), seen)
	case *types.Array:
		bu, ok := b.Underlying().(*types.Array)
		return ok && au.Len() == bu.Len() && k.alike(au.Elem(), bu.Elem(), seen)
	case *types.Map:
		bu, ok := b.Underlying().(*types.Map)
		return ok && k.alike(au.Key(), bu.Key(), seen) && k.alike(au.Elem(), bu.Elem(), seen)
	case *types.Struct:
		bu, ok := b.Underlying().(*types.Struct)
		if !ok || au.NumFields() != bu.NumFields() {
			return false
		}
		for i := range au.NumFields() {
			fa, fb := au.Field(i), bu.Field(i)
			if fa.Name() != fb.Name() || fa.Embedded() != fb.Embedded() ||
				tagName(au.Tag(i)) != tagName(bu.Tag(i)) || !k.alike(fa.Type(), fb.Type(), seen) {
				return false
			}
		}
		return true
	}
	return false
}

// tagName is the name a struct tag gives its field in JSON, without the
// options: omitempty changes how a zero value is written, not the value.
func tagName(tag string) string {
	name, _, _ := strings.Cut(reflect.StructTag(tag).Get("json"), ",")
	return name
}
