package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/crdforge/crdforge/"

// layers are the main module's packages from the top of the pipeline down,
// by import-path prefix (the longest prefix that matches decides): a
// package imports only packages of its own layer or below, never one above
// (ARCHITECTURE.md). Packages under internal/ are leaves, below every layer.
var layers = [][]string{
	{"cmd/crdforge"},
	{"cmd/crdforge/cli"},
	{"cmd/crdforge/command/"},
	{"generators/pipeline"},
	{"generators/"},
	{"generators/plan"},
	{"generators/model"},
	{"generators/load", "markers"},
	{"templates"},
}

// layer is the index in layers of the package at path (relative to the
// module), len(layers) for a leaf under internal/, and -1 elsewhere.
func layer(path string) int {
	best, longest := -1, 0
	for i, prefixes := range layers {
		for _, p := range prefixes {
			p = strings.TrimSuffix(p, "/")
			if (path == p || strings.HasPrefix(path, p+"/")) && len(p) > longest {
				best, longest = i, len(p)
			}
		}
	}
	if best < 0 && strings.HasPrefix(path, "internal/") {
		return len(layers)
	}
	return best
}

// topLevels are the folders of the generator at the module's top, in the
// one direction they import each other: a folder imports only itself and
// the folders after it. The pipeline sits in generators/, above the
// generators it runs, so that no folder imports one before it.
var topLevels = []string{"cmd", "generators", "markers", "templates", "internal"}

// topLevel is the index in topLevels of the folder holding path, -1 for
// the other folders (tests, examples, tools).
func topLevel(path string) int {
	return slices.Index(topLevels, strings.Split(path, "/")[0])
}

// listed is one package of `go list ./...`, at the module's root.
type listed struct {
	path, name string
	goFiles    int
	imports    []string
}

func list(t *testing.T) []listed {
	t.Helper()
	cmd := exec.Command("go", "list", "-f", `{{.ImportPath}} {{.Name}} {{len .GoFiles}} {{join .Imports " "}}`, "./...")
	cmd.Dir = "../.."
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	var pkgs []listed
	for line := range strings.Lines(string(out)) {
		f := strings.Fields(line)
		p := listed{path: strings.TrimPrefix(f[0], module), name: f[1]}
		p.goFiles, _ = strconv.Atoi(f[2])
		for _, imp := range f[3:] {
			if rel, ok := strings.CutPrefix(imp, module); ok {
				p.imports = append(p.imports, rel)
			}
		}
		pkgs = append(pkgs, p)
	}
	return pkgs
}

// No package of the generator imports one above it in the pipeline: cmd →
// cli → commands → pipeline → generators → conversion planning → model →
// load and markers → templates → leaves.
func TestNoPackageImportsALayerAbove(t *testing.T) {
	for _, p := range list(t) {
		from := layer(p.path)
		if from < 0 {
			continue
		}
		for _, imp := range p.imports {
			if to := layer(imp); to >= 0 && to < from {
				t.Errorf("%s imports %s, a layer above it", p.path, imp)
			}
		}
	}
}

// The top-level folders import one way: cmd → generators → markers →
// templates → internal, never back.
func TestTopLevelFoldersImportOneWay(t *testing.T) {
	for _, p := range list(t) {
		from := topLevel(p.path)
		if from < 0 {
			continue
		}
		for _, imp := range p.imports {
			if to := topLevel(imp); to >= 0 && to < from {
				t.Errorf("%s imports %s: %s/ comes before %s/", p.path, imp, topLevels[to], topLevels[from])
			}
		}
	}
}

// The main module's public API is its binary. Its importable packages live
// in the folders the design names (the CLI under cmd/crdforge, generators/,
// markers/, templates/), which carry no compatibility promise before v1
// (ARCHITECTURE.md, as controller-tools' pkg/), beside the examples and the
// end-to-end suite's harness, which its tests and the demo share; every
// other package is a main, tests alone (compat), or under internal/. The
// runtime and webhook modules are the API users build on.
func TestImportablePackagesAreWhereTheDesignSaysSo(t *testing.T) {
	for _, p := range list(t) {
		switch {
		case topLevel(p.path) >= 0, strings.HasPrefix(p.path, "examples/"),
			p.name == "main", p.goFiles == 0, p.path == "e2e":
			continue
		}
		t.Errorf("%s is importable outside the design's folders: move it under internal/", p.path)
	}
}

// maxFuncLines is the longest a function of the generator may be: one
// screen.
const maxFuncLines = 80

// Every function of the generator fits on a screen: the Go files of the
// top-level folders, tests and generated files aside.
func TestNoFunctionIsLongerThanAScreen(t *testing.T) {
	for _, dir := range topLevels {
		checkFunctionLengths(t, filepath.Join("../..", dir))
	}
}

// checkFunctionLengths reports each function under root longer than
// maxFuncLines.
func checkFunctionLengths(t *testing.T, root string) {
	t.Helper()
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return err
		case d.IsDir() && d.Name() == "testdata":
			return filepath.SkipDir
		case d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") || strings.HasPrefix(d.Name(), "zz_generated"):
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		for _, decl := range f.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok || fn.Body == nil {
				continue
			}
			start, end := fset.Position(fn.Pos()), fset.Position(fn.End())
			if n := end.Line - start.Line + 1; n > maxFuncLines {
				t.Errorf("%s:%d: %s is %d lines long, over %d: split it", path, start.Line, fn.Name.Name, n, maxFuncLines)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
