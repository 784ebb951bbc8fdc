package webhook

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"testing"
)

// shapesSrc has members that read alike and that encoding/json writes
// alike or not, as omitzero asks an IsZero of their type or does not.
const shapesSrc = `package p

type Mode string

func (m Mode) IsZero() bool { return m == "" || m == "none" }

type Limit struct{ Max int64 ` + "`json:\"max\"`" + ` }

func (l *Limit) IsZero() bool { return l.Max < 0 }

type Plain struct{ Max int64 ` + "`json:\"max\"`" + ` }

type ModeZ struct{ M Mode ` + "`json:\"m,omitzero\"`" + ` }
type StringZ struct{ M string ` + "`json:\"m,omitzero\"`" + ` }
type ModePtrZ struct{ M *Mode ` + "`json:\"m,omitzero\"`" + ` }
type StringPtrZ struct{ M *string ` + "`json:\"m,omitzero\"`" + ` }
type LimitZ struct{ L *Limit ` + "`json:\"l,omitzero\"`" + ` }
type PlainZ struct{ L *Plain ` + "`json:\"l,omitzero\"`" + ` }
type ModeE struct{ M Mode ` + "`json:\"m,omitempty\"`" + ` }
type StringE struct{ M string ` + "`json:\"m,omitempty\"`" + ` }
`

// TestShapeTellsAnIsZeroApart: a transcoder writes a passed member as the
// version it came from writes it, so two types are of one shape only if
// omitzero leaves the same values of them out, which an IsZero of the
// member's type decides.
func TestShapeTellsAnIsZeroApart(t *testing.T) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", shapesSrc, 0)
	if err != nil {
		t.Fatal(err)
	}
	pkg, err := (&types.Config{}).Check("example.com/p", fset, []*ast.File{f}, nil)
	if err != nil {
		t.Fatal(err)
	}
	c := &codecGen{funcs: map[*types.Named]string{}, encFuncs: map[*types.Named]string{}, transFuncs: map[*types.Named]string{},
		taken: map[string]bool{}, aliases: map[string]string{}, others: map[string]bool{}}
	shape := func(name string) string {
		return c.shape(pkg.Scope().Lookup(name).Type(), map[types.Type]bool{})
	}
	for _, tc := range []struct {
		a, b string
		same bool
	}{
		{"ModeZ", "StringZ", false},
		{"ModePtrZ", "StringPtrZ", false},
		{"LimitZ", "PlainZ", false},
		{"ModeE", "StringE", true}, // omitempty asks no IsZero
		{"ModeZ", "ModeZ", true},
	} {
		if got := shape(tc.a) == shape(tc.b); got != tc.same {
			t.Errorf("%s and %s of one shape: %v, want %v (%s, %s)", tc.a, tc.b, got, tc.same, shape(tc.a), shape(tc.b))
		}
	}
}
