package load

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"
	"sigs.k8s.io/controller-tools/pkg/loader"
)

// TestLoadWithoutCgoListsWhatTheBuildCompiles: the load of an example that
// imports k8s.io/api and controller-runtime, without cgo and without
// -compiled, has every package the go command's default load has, with the
// same files to compile and the same imports, but for the standard
// library's packages with cgo files, which it has without them.
func TestLoadWithoutCgoListsWhatTheBuildCompiles(t *testing.T) {
	dir, _ := filepath.Abs(filepath.Join("..", "..", "examples", "widgets"))
	paths := []string{"github.com/crdforge/crdforge/examples/widgets/api/v1", "github.com/crdforge/crdforge/examples/widgets/api/v1beta1"}
	fast, err := loadRoots(dir, token.NewFileSet(), paths...)
	if err != nil {
		t.Fatal(err)
	}
	full, err := loader.LoadRootsWithConfig(&packages.Config{Dir: dir, Mode: packages.NeedModule}, paths...)
	if err != nil {
		t.Fatal(err)
	}
	got, want := graph(fast), graph(full)
	if len(want) < 100 {
		t.Fatalf("the default load has %d packages: want the example's whole graph", len(want))
	}
	for id, w := range want {
		g, ok := got[id]
		if !ok {
			if !slices.Contains([]string{"runtime/cgo"}, id) {
				t.Errorf("%s: missing from the load without cgo", id)
			}
			continue
		}
		if len(g.Errors) > 0 {
			t.Errorf("%s: %v", id, g.Errors)
		}
		if usesCgo(w) {
			if !slices.Contains([]string{"net", "os/user"}, id) {
				t.Errorf("%s has cgo files: want only the standard library's net and os/user", id)
			}
			if !slices.Equal(g.CompiledGoFiles, g.GoFiles) || len(g.GoFiles) == 0 {
				t.Errorf("%s without cgo: compiled files %v, want its Go files %v", id, g.CompiledGoFiles, g.GoFiles)
			}
			for _, f := range g.CompiledGoFiles {
				if importsC(t, f) {
					t.Errorf("%s without cgo compiles %s, which imports \"C\"", id, f)
				}
			}
			continue
		}
		if !slices.Equal(g.CompiledGoFiles, w.CompiledGoFiles) {
			t.Errorf("%s: compiled files\n%v\nwant\n%v", id, g.CompiledGoFiles, w.CompiledGoFiles)
		}
		if !slices.Equal(importIDs(g), importIDs(w)) {
			t.Errorf("%s: imports %v, want %v", id, importIDs(g), importIDs(w))
		}
	}
	for id := range got {
		if _, ok := want[id]; !ok {
			t.Errorf("%s: in the load without cgo only", id)
		}
	}
}

// graph indexes every package reachable from roots by ID.
func graph(roots []*loader.Package) map[string]*packages.Package {
	out := map[string]*packages.Package{}
	packages.Visit(rawPackages(roots), nil, func(p *packages.Package) { out[p.ID] = p })
	return out
}

// usesCgo reports whether the go command compiles p from files cgo wrote.
func usesCgo(p *packages.Package) bool {
	for _, f := range p.CompiledGoFiles {
		if !slices.Contains(p.GoFiles, f) {
			return true
		}
	}
	return false
}

// importsC reports whether the Go file at path imports "C".
func importsC(t *testing.T, path string) bool {
	f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
	if err != nil {
		t.Fatal(err)
	}
	return slices.ContainsFunc(f.Imports, func(s *ast.ImportSpec) bool { return s.Path.Value == `"C"` })
}

func importIDs(p *packages.Package) []string {
	var ids []string
	for _, imp := range p.Imports {
		ids = append(ids, imp.ID)
	}
	slices.Sort(ids)
	return ids
}

// TestACgoPackageOfTheUsersIsLoadedAsItBuilds: an API type's field of a
// type that a cgo file of the main module declares type-checks; without
// cgo the package would have no Go file at all.
func TestACgoPackageOfTheUsersIsLoadedAsItBuilds(t *testing.T) {
	if out, _ := exec.Command("go", "env", "CGO_ENABLED").Output(); strings.TrimSpace(string(out)) != "1" {
		t.Skip("cgo is off here (no C compiler): the go command builds the package without its cgo files too")
	}
	dir := t.TempDir()
	for name, src := range map[string]string{
		"go.mod":           "module example.com/m\n\ngo 1.22\n",
		"native/native.go": "package native\n\n// #include <stdint.h>\nimport \"C\"\n\n// Handle is a native handle.\ntype Handle int64\n\nvar _ C.int64_t\n",
		"api/v1/types.go":  "package v1\n\nimport \"example.com/m/native\"\n\n// Thing holds a handle.\ntype Thing struct {\n\tHandle native.Handle `json:\"handle\"`\n}\n",
	} {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	roots, err := loadRoots(dir, token.NewFileSet(), "example.com/m/api/v1")
	if err != nil {
		t.Fatal(err)
	}
	native := graph(roots)["example.com/m/native"]
	if native == nil || len(native.Errors) > 0 || !usesCgo(native) {
		t.Fatalf("native is not loaded as the go command builds it: %+v", native)
	}
	var tc loader.TypeChecker
	tc.Check(roots[0])
	if errs := roots[0].Errors; len(errs) > 0 {
		t.Errorf("api/v1: %v", errs)
	}
}

// TestNeedsCgo: a file the go command builds only with cgo imports "C" or
// names the cgo tag in its build constraint.
func TestNeedsCgo(t *testing.T) {
	for src, want := range map[string]bool{
		"package p\n":                                        false,
		"package p\n\nimport \"fmt\"\n":                      false,
		"package p\n\nimport \"C\"\n":                        true,
		"// #include <stdio.h>\nimport \"C\"\n":              true, // no package clause: it does not parse
		"//go:build cgo\n\npackage p\n":                      true,
		"//go:build !cgo\n\npackage p\n":                     true,
		"//go:build linux && (cgo || darwin)\n\npackage p\n": true,
		"// +build cgo\n\npackage p\n":                       true,
		"//go:build linux\n\npackage p\n":                    false,
		"package p\n\n//go:build cgo\n":                      false, // not a constraint after the package clause
	} {
		path := filepath.Join(t.TempDir(), "f.go")
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		if got := needsCgo(path); got != want {
			t.Errorf("needsCgo(%q) = %t, want %t", src, got, want)
		}
	}
}
