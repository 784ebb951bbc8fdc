package runtime_test

import (
	"os/exec"
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

// TestRuntimeImportsNoGeneratorDependency lists every package the runtime
// links, tests excluded, and fails on any generator dependency.
func TestRuntimeImportsNoGeneratorDependency(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "-f", "{{.ImportPath}}", "github.com/crdforge/crdforge/runtime/...").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	deps := strings.Fields(string(out))
	if len(deps) == 0 {
		t.Fatal("go list returned no packages")
	}
	for _, dep := range deps {
		for _, bad := range generatorOnly {
			if dep == bad || strings.HasPrefix(dep, bad+"/") {
				t.Errorf("runtime depends on %s, a generator dependency", dep)
			}
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
