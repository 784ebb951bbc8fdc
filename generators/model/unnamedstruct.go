package model

import (
	"go/token"
	"go/types"
	"slices"

	"sigs.k8s.io/controller-tools/pkg/loader"
)

// UnnamedStruct is a place where a type that controller-tools' deepcopy
// generator copies holds an unnamed struct type (map[string]struct{}, or a
// slice of struct{ Key, Value string }). That generator names every type it
// copies and cannot name those: it records an error without a position
// ("name requested for invalid type") and writes no methods. deepcopy-gen,
// which some projects use (Longhorn's older API version has a set as
// map[string]struct{}), copies them.
type UnnamedStruct struct {
	// Pos is the field, or the type declaration when the type itself is a
	// map, slice, array or pointer.
	Pos token.Pos
	// Owner is the type whose DeepCopyInto would be generated; Field is the
	// field's name, empty when the unnamed struct is in Owner's own type.
	Owner, Field string
	// Struct is the unnamed struct type.
	Struct *types.Struct
}

// UnnamedStructs lists, in declaration order, where root's types whose
// deepcopy methods controller-tools would write hold an unnamed struct type.
// A type with a hand-written DeepCopyInto is left out: its copying is its
// author's, and controller-tools leaves its fields alone.
func (m *Model) UnnamedStructs(root *loader.Package) []UnnamedStruct {
	if root.Types == nil {
		return nil
	}
	var out []UnnamedStruct
	scope := root.Types.Scope()
	for _, name := range scope.Names() {
		tn, ok := scope.Lookup(name).(*types.TypeName)
		if !ok || tn.IsAlias() {
			continue
		}
		n, ok := tn.Type().(*types.Named)
		if !ok || !m.generatesDeepCopy(n) {
			continue
		}
		if declared, _ := ownDeepCopyInto(n); declared {
			continue
		}
		st, isStruct := n.Underlying().(*types.Struct)
		if !isStruct {
			if s := unnamedStructIn(n.Underlying()); s != nil {
				out = append(out, UnnamedStruct{Pos: tn.Pos(), Owner: name, Struct: s})
			}
			continue
		}
		for i := range st.NumFields() {
			f := st.Field(i)
			if s := unnamedStructIn(f.Type()); s != nil {
				out = append(out, UnnamedStruct{Pos: f.Pos(), Owner: name, Field: f.Name(), Struct: s})
			}
		}
	}
	slices.SortStableFunc(out, func(a, b UnnamedStruct) int { return int(a.Pos - b.Pos) })
	return out
}

// unnamedStructIn is the first unnamed struct type that t, a map, slice,
// array or pointer, holds, without looking into named types: those have
// deepcopy methods of their own, or are another package's. A field whose
// type is itself an unnamed struct is not one: controller-tools copies it
// (by assignment) without naming it.
func unnamedStructIn(t types.Type) *types.Struct {
	var elems []types.Type
	switch t := t.(type) {
	case *types.Map:
		elems = []types.Type{t.Key(), t.Elem()}
	case *types.Slice:
		elems = []types.Type{t.Elem()}
	case *types.Array:
		elems = []types.Type{t.Elem()}
	case *types.Pointer:
		elems = []types.Type{t.Elem()}
	}
	for _, e := range elems {
		if s, ok := e.(*types.Struct); ok {
			return s
		}
		if s := unnamedStructIn(e); s != nil {
			return s
		}
	}
	return nil
}
