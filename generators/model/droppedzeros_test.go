package model

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"testing"
)

// shapes declares a field of every shape whose tag may drop its zero; each
// case below names one, with a tag and a default.
const shapes = `package p

// Stamp decides its zero itself, as metav1.Time does; Quantity reads its
// own JSON, as resource.Quantity does.
type Stamp struct{ s string }

func (s Stamp) IsZero() bool { return s.s == "" }

type Quantity struct{ n int }

func (q *Quantity) UnmarshalJSON([]byte) error { return nil }

type Mode string

type Inner struct {
	A int    ` + "`json:\"a,omitempty\"`" + `
	B string ` + "`json:\"b\"`" + `
}

type Spec struct {
	Bool    bool
	Int     int32
	Float   float64
	Str     Mode
	Ptr     *int32
	Slice   []string
	Bytes   []byte
	Map     map[string]string
	Arr     [2]int
	Arr0    [0]int
	Struct  Inner
	Time    Stamp
	Qty     Quantity
	Iface   any
}
`

// TestDefaultReplacesZero: for each shape, tag and default, whether the
// default replaces an explicit zero the tag drops, and which.
func TestDefaultReplacesZero(t *testing.T) {
	spec := shapesSpec(t)
	cases := []struct {
		field, tag, def string
		zero, option    string // option "" when nothing changes
	}{
		{"Bool", "omitempty", "true", "false", "omitempty"},
		{"Bool", "omitzero", "true", "false", "omitzero"},
		{"Bool", "omitempty", "false", "", ""},
		{"Bool", "", "true", "", ""}, // without an option the zero is written
		{"Int", "omitempty", "3", "0", "omitempty"},
		{"Int", "omitempty", "0", "", ""},
		{"Float", "omitempty", "0.5", "0", "omitempty"},
		{"Str", "omitempty", `"Allow"`, `""`, "omitempty"},
		{"Str", "omitempty", `""`, "", ""},
		{"Ptr", "omitempty", "3", "", ""}, // a nil pointer only comes from null, which the API server prunes
		{"Slice", "omitempty", `["a"]`, "[]", "omitempty"},
		{"Slice", "omitempty", `[]`, "", ""},
		{"Slice", "omitzero", `["a"]`, "", ""}, // omitzero drops only nil: [] is written
		{"Bytes", "omitempty", `"AQ=="`, `""`, "omitempty"},
		{"Map", "omitempty", `{"a":"b"}`, "{}", "omitempty"},
		{"Map", "omitempty", `{}`, "", ""},
		{"Map", "omitzero", `{"a":"b"}`, "", ""},
		{"Arr", "omitempty", `[1,2]`, "", ""}, // omitempty drops only an array of no elements
		{"Arr", "omitzero", `[1,0]`, "[]", "omitzero"},
		{"Arr", "omitzero", `[0,0]`, "", ""},
		{"Arr0", "omitempty", `[]`, "", ""},
		{"Struct", "omitempty", `{"a":1}`, "", ""}, // omitempty never drops a struct
		{"Struct", "omitzero", `{"a":1}`, "{}", "omitzero"},
		{"Struct", "omitzero", `{"a":0,"b":""}`, "", ""},
		{"Struct", "omitzero", `{}`, "", ""},
		{"Time", "omitzero", `"2024-01-01T00:00:00Z"`, "", ""}, // its IsZero decides
		{"Qty", "omitzero", `"1Gi"`, "", ""},                   // its UnmarshalJSON decides
		{"Iface", "omitempty", `1`, "", ""},
	}
	for _, c := range cases {
		f := fieldNamed(t, spec, c.field)
		tag := parseJSONTag(`json:"x,` + c.tag + `"`)
		zero, option := defaultReplacesZero(f.Type(), tag, []byte(c.def))
		if zero != c.zero || option != c.option {
			t.Errorf("%s `%s` default %s: got (%q, %q), want (%q, %q)", c.field, c.tag, c.def, zero, option, c.zero, c.option)
		}
	}
}

func shapesSpec(t *testing.T) *types.Struct {
	t.Helper()
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, "p.go", shapes, 0)
	if err != nil {
		t.Fatal(err)
	}
	conf := types.Config{}
	pkg, err := conf.Check("p", fset, []*ast.File{file}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return pkg.Scope().Lookup("Spec").Type().Underlying().(*types.Struct)
}

func fieldNamed(t *testing.T, st *types.Struct, name string) *types.Var {
	t.Helper()
	for i := range st.NumFields() {
		if st.Field(i).Name() == name {
			return st.Field(i)
		}
	}
	t.Fatalf("no field %s", name)
	return nil
}
