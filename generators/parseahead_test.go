package generators

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/crdforge/crdforge/generators/internal/synth"
	"github.com/crdforge/crdforge/internal/diag"
	"sigs.k8s.io/controller-tools/pkg/loader"
)

// TestCheckedPackagesAreParsedAhead: every package a run parses, the roots
// and all it type-checks, is parsed by the load's parse ahead, without
// go/parser's object resolution, and none is left for controller-tools'
// loader to parse again with it (a file parsed with object resolution has a
// scope). It fails if the parse ahead misses a package the checker needs,
// in a CRD-only run or a full one.
func TestCheckedPackagesAreParsedAhead(t *testing.T) {
	// Inside this module, so that the tree's imports resolve.
	dir, err := filepath.Abs(filepath.Join("..", "testdata", "_parseahead"))
	if err != nil {
		t.Fatal(err)
	}
	if err := synth.Write(dir, 1); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(dir) })

	for _, only := range [][]string{{"crd"}, nil} {
		res, err := Generate(Config{Dir: dir, Only: only})
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range res.Diags.Items() {
			if d.Severity == diag.Error { // the synthetic tree's one-version fields warn
				t.Fatalf("--only %v: %s", only, d.Format(dir))
			}
		}
		parsed := 0
		seen := map[*loader.Package]bool{}
		var visit func(p *loader.Package)
		visit = func(p *loader.Package) {
			if seen[p] {
				return
			}
			seen[p] = true
			for _, f := range p.Syntax {
				parsed++
				if f.Scope != nil {
					t.Errorf("--only %v: %s parsed with object resolution, not ahead", only, res.Model.Fset.Position(f.Package).Filename)
				}
			}
			for _, imp := range p.Imports() {
				visit(imp)
			}
		}
		for _, r := range res.Model.Roots {
			visit(r)
		}
		if parsed == 0 {
			t.Errorf("--only %v: no file parsed", only)
		}
	}
}
