package plan

import (
	"go/types"
	"testing"
)

// TestSameShape: two declarations of one struct convert by a cast only
// when Go and JSON both see one shape.
func TestSameShape(t *testing.T) {
	str, i32 := types.Typ[types.String], types.Typ[types.Int32]
	named := func(pkg, name string, fields []*types.Var, tags []string) *types.Named {
		p := types.NewPackage("example.com/"+pkg, pkg)
		return types.NewNamed(types.NewTypeName(0, p, name, nil), types.NewStruct(fields, tags), nil)
	}
	field := func(name string, typ types.Type) *types.Var { return types.NewField(0, nil, name, typ, false) }
	window := []*types.Var{field("Start", str), field("End", str)}
	alpha := named("alpha", "Window", window, []string{`json:"start"`, `json:"end"`})
	for _, tc := range []struct {
		name string
		b    *types.Named
		want bool
	}{
		{"the same declaration", named("beta", "Window", window, []string{`json:"start"`, `json:"end"`}), true},
		{"other Go tags beside the same JSON names", named("beta", "Window", window, []string{`json:"start" protobuf:"bytes,1"`, `json:"end" protobuf:"bytes,2"`}), true},
		{"a field renamed in JSON", named("beta", "Window", window, []string{`json:"start"`, `json:"finish"`}), false},
		{"a field of another type", named("beta", "Window", []*types.Var{field("Start", str), field("End", i32)}, []string{`json:"start"`, `json:"end"`}), false},
		{"fields in another order", named("beta", "Window", []*types.Var{field("End", str), field("Start", str)}, []string{`json:"end"`, `json:"start"`}), false},
		{"a field more", named("beta", "Window", append(window[:2:2], field("Zone", str)), []string{`json:"start"`, `json:"end"`, `json:"zone"`}), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := sameShape(alpha, tc.b); got != tc.want {
				t.Errorf("%s: sameShape = %v, want %v", tc.name, got, tc.want)
			}
		})
	}
}
