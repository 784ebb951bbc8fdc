package runtime_test

import (
	"io/fs"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// generatorOnly lists module path prefixes that only the generator may use.
var generatorOnly = []string{
	"golang.org/x/tools",
	"github.com/dave/jennifer",
	"sigs.k8s.io/controller-tools",
	"k8s.io/gengo",
	"github.com/crdforge/crdforge/generators",
	"github.com/crdforge/crdforge/markers",
	"github.com/crdforge/crdforge/cmd",
}

const runtimePath = "github.com/crdforge/crdforge/runtime"

// runtimeDeps lists every package that the packages under runtime/ link,
// themselves included and tests excluded: what a webhook binary or
// generated code carries.
func runtimeDeps(t *testing.T) []string {
	t.Helper()
	out, err := exec.Command("go", "list", "-deps", "-f", "{{.ImportPath}}", runtimePath+"/...").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	deps := strings.Fields(string(out))
	if len(deps) == 0 {
		t.Fatal("go list returned no packages")
	}
	return deps
}

// TestRuntimeImportsNoGeneratorDependency fails on any generator dependency
// of any package under runtime/, the public ones and internal/ alike.
func TestRuntimeImportsNoGeneratorDependency(t *testing.T) {
	for _, dep := range runtimeDeps(t) {
		for _, bad := range generatorOnly {
			if dep == bad || strings.HasPrefix(dep, bad+"/") {
				t.Errorf("runtime depends on %s, a generator dependency", dep)
			}
		}
	}
}

// TestGuardCoversEveryRuntimePackage makes sure the pattern above reaches
// every directory of Go code under runtime/, so that a new package cannot
// slip past the guard (a build constraint excluding it, say).
func TestGuardCoversEveryRuntimePackage(t *testing.T) {
	deps := runtimeDeps(t)
	var found []string
	err := filepath.WalkDir(".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if p != "." && (name == "testdata" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(name, ".go") && !strings.HasSuffix(name, "_test.go") {
			pkg := path.Join(runtimePath, filepath.ToSlash(filepath.Dir(p)))
			if !slices.Contains(found, pkg) {
				found = append(found, pkg)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{runtimePath + "/webhook", runtimePath + "/internal/server"} {
		if !slices.Contains(found, want) {
			t.Errorf("found no Go files of %s; the walk is wrong", want)
		}
	}
	for _, pkg := range found {
		if !slices.Contains(deps, pkg) {
			t.Errorf("%s holds Go code but the guard does not list it", pkg)
		}
	}
}

// TestGuardCatchesAGeneratorImport makes sure the guard above can fail: the
// generators package, which does import controller-tools, must be flagged.
func TestGuardCatchesAGeneratorImport(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "-f", "{{.ImportPath}}", "github.com/crdforge/crdforge/generators").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "sigs.k8s.io/controller-tools/") {
		t.Fatal("the generators package should depend on controller-tools; the guard's premise is wrong")
	}
}
