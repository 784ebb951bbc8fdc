package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/crdforge/crdforge/"

// layers are the main module's packages from the top of the pipeline down,
// by import-path prefix: a package imports only packages of its own layer
// or below, never one above (ARCHITECTURE.md). Packages under internal/
// that no prefix names are leaves, below every layer.
var layers = [][]string{
	{"cmd/crdforge"},
	{"internal/cli"},
	{"internal/command/"},
	{"internal/pipeline"},
	{"internal/gen/"},
	{"internal/plan"},
	{"internal/model"},
	{"internal/load", "internal/markers"},
}

// layer is the index in layers of the package at path (relative to the
// module), len(layers) for a leaf, and -1 outside cmd/ and internal/.
func layer(path string) int {
	for i, prefixes := range layers {
		for _, p := range prefixes {
			p = strings.TrimSuffix(p, "/")
			if path == p || strings.HasPrefix(path, p+"/") {
				return i
			}
		}
	}
	if strings.HasPrefix(path, "internal/") {
		return len(layers)
	}
	return -1
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
// load and markers → leaves.
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

// The main module's only public surface is the binary: outside internal/,
// every package is a main, tests alone (compat), an example, or the
// end-to-end suite's harness, which its tests and the demo share. The
// runtime and webhook modules are the public API.
func TestNothingOutsideInternalIsImportable(t *testing.T) {
	for _, p := range list(t) {
		switch {
		case strings.HasPrefix(p.path, "internal/"), strings.HasPrefix(p.path, "examples/"),
			p.name == "main", p.goFiles == 0, p.path == "e2e":
			continue
		}
		t.Errorf("%s is importable: move it under internal/", p.path)
	}
}

// maxFuncLines is the longest a function of the generator may be: one
// screen.
const maxFuncLines = 80

// Every function of the generator fits on a screen: internal/'s Go files,
// tests and generated files aside.
func TestNoFunctionIsLongerThanAScreen(t *testing.T) {
	fset := token.NewFileSet()
	err := filepath.WalkDir("../../internal", func(path string, d fs.DirEntry, err error) error {
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
