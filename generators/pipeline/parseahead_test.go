package pipeline

import (
	"os"
	"path/filepath"
	"testing"

	"sigs.k8s.io/controller-tools/pkg/loader"

	"github.com/crdforge/crdforge/internal/diag"
	"github.com/crdforge/crdforge/internal/testdata/synth"
)

// oneKindTree writes a synthetic tree of one kind under testdata/name,
// inside this module so that its imports resolve, for the test's duration.
func oneKindTree(t *testing.T, name string) string {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("..", "..", "testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	if err := synth.Write(dir, 1); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(dir) })
	return dir
}

// generateWithoutErrors runs the generators only names (all when nil) on
// dir; the synthetic tree's one-version fields warn, and that is all.
func generateWithoutErrors(t *testing.T, dir string, only []string) *Result {
	t.Helper()
	res, err := Generate(Config{Dir: dir, Only: only})
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range res.Diags.Items() {
		if d.Severity == diag.Error {
			t.Fatalf("--only %v: %s", only, d.Format(dir))
		}
	}
	return res
}

// eachLoaded calls visit once for every package reachable from roots.
func eachLoaded(roots []*loader.Package, visit func(p *loader.Package)) {
	seen := map[*loader.Package]bool{}
	var walk func(p *loader.Package)
	walk = func(p *loader.Package) {
		if seen[p] {
			return
		}
		seen[p] = true
		visit(p)
		for _, imp := range p.Imports() {
			walk(imp)
		}
	}
	for _, r := range roots {
		walk(r)
	}
}

// TestCheckedPackagesAreParsedAhead: every package a run parses, the roots
// and all it type-checks, is parsed by the load's parse ahead, without
// go/parser's object resolution, and none is left for controller-tools'
// loader to parse again with it (a file parsed with object resolution has a
// scope). It fails if the parse ahead misses a package the checker needs,
// in a CRD-only run or a full one.
func TestCheckedPackagesAreParsedAhead(t *testing.T) {
	dir := oneKindTree(t, "_parseahead")
	for _, only := range [][]string{{"crd"}, nil} {
		res := generateWithoutErrors(t, dir, only)
		parsed := 0
		eachLoaded(res.Model.Roots, func(p *loader.Package) {
			for _, f := range p.Syntax {
				parsed++
				if f.Scope != nil {
					t.Errorf("--only %v: %s parsed with object resolution, not ahead", only, res.Model.Fset.Position(f.Package).Filename)
				}
			}
		})
		if parsed == 0 {
			t.Errorf("--only %v: no file parsed", only)
		}
	}
}
