package model

import (
	"go/types"
	"reflect"
	"slices"
	"strings"
)

// Deref strips every pointer from t.
func Deref(t types.Type) types.Type {
	for {
		p, ok := t.(*types.Pointer)
		if !ok {
			return t
		}
		t = p.Elem()
	}
}

// FieldByJSONName finds the struct field of t serialized as name, looking
// through embedded and inline fields as encoding/json does. Both the CRD
// validator and the breaking-change checker map a schema path back to the Go
// field with it.
func FieldByJSONName(t types.Type, name string) *types.Var {
	st, ok := Deref(t).Underlying().(*types.Struct)
	if !ok {
		return nil
	}
	for i := 0; i < st.NumFields(); i++ {
		f := st.Field(i)
		tag := reflect.StructTag(st.Tag(i)).Get("json")
		jsonName, opts, _ := strings.Cut(tag, ",")
		if jsonName == "-" && opts == "" {
			continue
		}
		if jsonName == "" && (f.Embedded() || strings.Contains(opts, "inline")) {
			if inner := FieldByJSONName(f.Type(), name); inner != nil {
				return inner
			}
			continue
		}
		if jsonName == "" {
			jsonName = f.Name()
		}
		if jsonName == name {
			return f
		}
	}
	return nil
}

// JSONName reads a struct field's JSON name and omitempty from its tag.
func JSONName(parent *types.Named, f *types.Var) (name string, omitEmpty, ok bool) {
	st := parent.Underlying().(*types.Struct)
	for i := range st.NumFields() {
		if st.Field(i) != f {
			continue
		}
		tag := reflect.StructTag(st.Tag(i)).Get("json")
		name, opts, _ := strings.Cut(tag, ",")
		if name == "-" || (name == "" && f.Embedded()) {
			return "", false, false
		}
		if name == "" {
			name = f.Name()
		}
		return name, slices.Contains(strings.Split(opts, ","), "omitempty"), true
	}
	return "", false, false
}
