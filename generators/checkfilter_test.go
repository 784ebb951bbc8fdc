package generators

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/crdforge/crdforge/generators/internal/synth"
	"github.com/crdforge/crdforge/internal/diag"
	"sigs.k8s.io/controller-tools/pkg/loader"
)

// parsedPackages lists, by import path, the packages reachable from roots
// that the run parsed (and so type-checked from source).
func parsedPackages(roots []*loader.Package) map[string]bool {
	out := map[string]bool{}
	seen := map[*loader.Package]bool{}
	var visit func(p *loader.Package)
	visit = func(p *loader.Package) {
		if seen[p] {
			return
		}
		seen[p] = true
		if p.Syntax != nil {
			out[p.PkgPath] = true
		}
		for _, imp := range p.Imports() {
			visit(imp)
		}
	}
	for _, r := range roots {
		visit(r)
	}
	return out
}

// TestCRDsAloneCheckWhatControllerGenChecks: generating only CRDs
// type-checks the imports that schemas can reach, as controller-gen does,
// not the whole dependency tree of every import: resource.Quantity's
// unexported, untagged inf.Dec field leads to gopkg.in/inf.v0 and from there
// into the standard library, none of which a CRD needs. A full run still
// checks everything: conversions need every type.
func TestCRDsAloneCheckWhatControllerGenChecks(t *testing.T) {
	// Inside this module, so that the tree's imports resolve.
	dir, err := filepath.Abs(filepath.Join("..", "testdata", "_checkfilter"))
	if err != nil {
		t.Fatal(err)
	}
	if err := synth.Write(dir, 1); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(dir) })

	for _, tc := range []struct {
		only     []string
		wantInfo bool
	}{
		{[]string{"crd"}, false},
		{nil, true},
	} {
		res, err := Generate(Config{Dir: dir, Only: tc.only})
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range res.Diags.Items() {
			if d.Severity == diag.Error { // the synthetic tree's one-version fields warn
				t.Fatalf("--only %v: %s", tc.only, d.Format(dir))
			}
		}
		parsed := parsedPackages(res.Model.Roots)
		if got := parsed["gopkg.in/inf.v0"]; got != tc.wantInfo {
			t.Errorf("--only %v: gopkg.in/inf.v0 type-checked: %v, want %v (%d packages checked)", tc.only, got, tc.wantInfo, len(parsed))
		}
		// What a groupversion_info.go's variable uses is checked (its own
		// declarations), or the root would have type errors.
		if !parsed["k8s.io/apimachinery/pkg/runtime/schema"] {
			t.Errorf("--only %v: runtime/schema not checked", tc.only)
		}
	}
}
