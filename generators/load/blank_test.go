package load

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"
	"sigs.k8s.io/controller-tools/pkg/loader"
)

// TestBlankBodiesParsesAsDropBodies: every file of k8s.io/api/core/v1 and
// what it imports, Go's standard library and apimachinery among them,
// parses with its bodies blanked to the tree dropBodies leaves of it, node
// for node and position for position, with the same comments outside the
// bodies; and every body but those blankBodies keeps is blanked.
func TestBlankBodiesParsesAsDropBodies(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "-f", "{{.Dir}}", "k8s.io/api/core/v1").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	var files, blanked int
	for _, dir := range strings.Fields(string(out)) {
		names, _ := filepath.Glob(filepath.Join(dir, "*.go"))
		for _, name := range names {
			src, err := os.ReadFile(name)
			if err != nil {
				t.Fatal(err)
			}
			files++
			if sameTreeBlanked(t, name, src) {
				blanked++
			}
		}
	}
	if files < 1000 || blanked < files/2 {
		t.Errorf("%d files, %d of them with a body blanked: want more", files, blanked)
	}
}

// FuzzBlankBodies: a file that parses parses to the same tree with its
// bodies blanked.
func FuzzBlankBodies(f *testing.F) {
	for _, src := range blankSeeds {
		f.Add(src)
	}
	f.Fuzz(func(t *testing.T, src string) {
		sameTreeBlanked(t, "fuzz.go", []byte(src))
	})
}

// blankSeeds are declarations whose bodies are hard to find: braces in
// signatures, in literals and comments, functions without bodies, func in
// types and literals, bodies that stay.
var blankSeeds = []string{
	"package p\n\nfunc f() struct{ x int } { return struct{ x int }{1} }\n",
	"package p\n\nfunc f() (interface{ M() }, map[string]struct{}) { return nil, nil }\n",
	"package p\n\nfunc f[T interface{ ~int }](x T) func() struct{} { return func() struct{} { return struct{}{} } }\n",
	"package p\n\nfunc f() int\nfunc g() { s := \"}{\"; r := '}'; _ = `{`; _, _ = s, r /* } */ } // }\n",
	"package p\n\nvar f = func() int { return 1 }()\nvar g = map[string]func(){\"a\": func() {}}\n\nfunc h() {}\n",
	"package p\n\ntype F func() int\ntype I interface {\n\tM() struct{}\n}\n\nfunc (F) m() {}\n",
	"package p\n\ntype T struct{}\n\nfunc (t *T) ConvertTo(x int) error { return nil }\nfunc (t *T) ConvertFrom(x int) error { return nil }\nfunc ConvertTo() { println() }\n",
	"package p\n\nfunc f() {\n//line other.go:10\n\tprintln()\n}\n\nfunc g() { println() }\n",
	"package p\n\nfunc f() *struct /* { */ {\n} {\n\treturn nil\n}\n",
	"package p\n\nimport \"fmt\"\n\nfunc f() { fmt.Println('\\'', \"\\\"}\") }; func g() { _ = 1 }\n",
	"package p\n\nconst c = 1\nfunc f(\n\ta int,\n) (\n\tb int,\n) {\n\treturn a\n}\n",
}

// sameTreeBlanked fails t when src, which parses, parses to another tree
// with its bodies blanked than dropBodies leaves of it. It reports whether
// blanking changed src.
func sameTreeBlanked(t *testing.T, name string, src []byte) bool {
	t.Helper()
	wantFset, want, err := parseDropped(name, src)
	if err != nil {
		return false // a file that does not parse is not blanked: parse keeps it whole
	}
	b := blankBodies(src)
	if len(b) != len(src) {
		t.Fatalf("%s: blanked to %d bytes from %d", name, len(b), len(src))
	}
	gotFset, got, err := parseDropped(name, b)
	if err != nil {
		t.Fatalf("%s: does not parse blanked: %v\n%s", name, err, b)
	}
	directives := bytes.Contains(src, []byte("//line ")) || bytes.Contains(src, []byte("/*line "))
	if w, g := treeNodes(wantFset, want, directives), treeNodes(gotFset, got, directives); !slices.Equal(w, g) {
		t.Fatalf("%s: blanked, parses to another tree:\n%s", name, firstNodeDiff(w, g))
	}
	if w, g := commentsOutsideBodies(want, want), commentsOutsideBodies(got, want); w != g {
		t.Fatalf("%s: blanked, the comments outside bodies differ:\n%s", name, firstDiff(w, g))
	}
	// Every body is blanked but those blankBodies keeps.
	for _, d := range got.Decls {
		fn, ok := d.(*ast.FuncDecl)
		if !ok || fn.Body == nil || convertibleMethod(fn) {
			continue
		}
		lb, rb := gotFset.Position(fn.Body.Lbrace).Offset, gotFset.Position(fn.Body.Rbrace).Offset
		inside := src[lb+1 : rb]
		if len(bytes.TrimSpace(b[lb+1:rb])) > 0 && !bytes.Contains(inside, []byte("//line ")) && !bytes.Contains(inside, []byte("/*line ")) {
			t.Fatalf("%s: the body of %s at offset %d was not blanked", name, fn.Name.Name, lb)
		}
	}
	return string(b) != string(src)
}

func parseDropped(name string, src []byte) (*token.FileSet, *ast.File, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, name, src, parser.AllErrors|parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return nil, nil, err
	}
	dropBodies(f)
	return fset, f, nil
}

// node is a node of a tree but comments: its type, where it starts and
// ends, and the text of a name or literal. Where line directives are, the
// positions are the lines and columns they give, which cost more to find.
type node struct {
	typ        reflect.Type
	start, end token.Pos
	line       [2]token.Position
	text       string
}

func treeNodes(fset *token.FileSet, f *ast.File, directives bool) []node {
	var nodes []node
	ast.Inspect(f, func(n ast.Node) bool {
		switch n.(type) {
		case nil, *ast.CommentGroup, *ast.Comment:
			return false
		}
		nd := node{typ: reflect.TypeOf(n), start: n.Pos(), end: n.End()}
		if directives {
			nd.line = [2]token.Position{fset.PositionFor(n.Pos(), true), fset.PositionFor(n.End(), true)}
		}
		switch n := n.(type) {
		case *ast.Ident:
			nd.text = n.Name
		case *ast.BasicLit:
			nd.text = n.Value
		}
		nodes = append(nodes, nd)
		return true
	})
	return nodes
}

func firstNodeDiff(want, got []node) string {
	for i := range min(len(want), len(got)) {
		if want[i] != got[i] {
			return fmt.Sprintf("node %d: want %v, got %v", i, want[i], got[i])
		}
	}
	return fmt.Sprintf("want %d nodes, got %d", len(want), len(got))
}

// commentsOutsideBodies lists the comments of f that are outside the bodies
// of ref's function declarations.
func commentsOutsideBodies(f, ref *ast.File) string {
	var b strings.Builder
	for _, g := range f.Comments {
		inBody := false
		for _, d := range ref.Decls {
			if fn, ok := d.(*ast.FuncDecl); ok && fn.Body != nil && fn.Body.Lbrace < g.Pos() && g.End() <= fn.Body.Rbrace {
				inBody = true
			}
		}
		if !inBody {
			for _, c := range g.List {
				fmt.Fprintf(&b, "%d %s\n", c.Pos(), c.Text)
			}
		}
	}
	return b.String()
}

func firstDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := range min(len(w), len(g)) {
		if w[i] != g[i] {
			return fmt.Sprintf("line %d: want %q, got %q", i+1, w[i], g[i])
		}
	}
	return fmt.Sprintf("want %d lines, got %d", len(w), len(g))
}

// TestOnlyFilesNobodyEditsAreBlanked: the standard library's and required
// modules' files are blanked; the main module's and those of a module
// replaced by a directory, which the user may be editing, are parsed whole,
// so that an error in a body is reported.
func TestOnlyFilesNobodyEditsAreBlanked(t *testing.T) {
	for _, tc := range []struct {
		name   string
		module *packages.Module
		want   bool
	}{
		{"standard library", nil, true},
		{"required module", &packages.Module{Path: "k8s.io/api", Version: "v0.37.2"}, true},
		{"main module", &packages.Module{Path: "example.com/m", Main: true}, false},
		{"replaced by a directory", &packages.Module{Path: "example.com/r", Replace: &packages.Module{Path: "../r"}}, false},
		{"replaced by a version", &packages.Module{Path: "example.com/r", Replace: &packages.Module{Path: "example.com/fork", Version: "v1.0.0"}}, true},
	} {
		pkg := &loader.Package{Package: &packages.Package{Module: tc.module}}
		if got := readOnly(pkg); got != tc.want {
			t.Errorf("%s: readOnly %v, want %v", tc.name, got, tc.want)
		}
	}
}
