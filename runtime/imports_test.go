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
	"github.com/prometheus",
	"github.com/crdforge/crdforge/generators/pipeline",
	"github.com/crdforge/crdforge/markers",
	"github.com/crdforge/crdforge/cmd",
	"github.com/crdforge/crdforge/webhook",
}

const runtimePath = "github.com/crdforge/crdforge/runtime"

// runtimeDeps lists every package that the packages of this module link,
// themselves included and tests excluded: what generated code carries.
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

// forbidden returns the packages of deps that belong to the generator, or
// to crdforge outside this module.
func forbidden(deps []string) []string {
	var bad []string
	for _, dep := range deps {
		if strings.HasPrefix(dep, "github.com/crdforge/crdforge/") && dep != runtimePath && !strings.HasPrefix(dep, runtimePath+"/") {
			bad = append(bad, dep)
			continue
		}
		for _, g := range generatorOnly {
			if dep == g || strings.HasPrefix(dep, g+"/") {
				bad = append(bad, dep)
				break
			}
		}
	}
	return bad
}

// TestRuntimeImportsNoGeneratorDependency fails on any generator dependency
// of any package of this module.
func TestRuntimeImportsNoGeneratorDependency(t *testing.T) {
	for _, dep := range forbidden(runtimeDeps(t)) {
		t.Errorf("the runtime module depends on %s, a generator dependency", dep)
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
	for _, want := range []string{runtimePath + "/lossless", runtimePath + "/conversiontest"} {
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

// TestGuardCatchesAGeneratorImport makes sure the guard above can fail:
// the dependencies of crdforge's generators package and of its webhook
// package, which this module cannot load, must be flagged.
func TestGuardCatchesAGeneratorImport(t *testing.T) {
	for _, dep := range []string{
		"sigs.k8s.io/controller-tools/pkg/crd",
		"golang.org/x/tools/go/packages",
		"github.com/crdforge/crdforge/webhook",
		"github.com/crdforge/crdforge/webhook/internal/server",
		"github.com/prometheus/client_golang/prometheus",
	} {
		if got := forbidden([]string{"k8s.io/apimachinery/pkg/runtime", dep, runtimePath + "/lossless"}); !slices.Equal(got, []string{dep}) {
			t.Errorf("forbidden flags %v, want only %s", got, dep)
		}
	}
}
