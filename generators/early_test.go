package generators

import (
	"bytes"
	"path/filepath"
	"testing"

	"github.com/crdforge/crdforge/generators/crd"
	"github.com/crdforge/crdforge/internal/diag"
)

// TestCRDsStartedEarlyAreThoseGeneratedAfter runs CRD generation as the
// pipeline does, each kind printed and validated while the model builds the
// next, and again from the finished model, and requires the same files and
// the same diagnostics, in the same order (the API server's errors at their
// markers included: err_cel, err_nonstructural).
func TestCRDsStartedEarlyAreThoseGeneratedAfter(t *testing.T) {
	for _, c := range []string{"multikind", "features", "validation", "err_cel", "err_nonstructural"} {
		dir := filepath.Join("..", "testdata", c)
		res, err := Generate(Config{Dir: dir, Only: []string{"crd"}})
		if err != nil {
			t.Fatal(err)
		}
		cfg, err := Config{Dir: dir, Only: []string{"crd"}}.Complete()
		if err != nil {
			t.Fatal(err)
		}
		var g crd.Generator
		for _, gen := range cfg.gens {
			g = gen.(crd.Generator)
		}
		d := diag.New(res.Model.Fset)
		files := g.Generate(res.Model, d)
		if res.Diags.HasErrors() {
			files = nil // as Generate drops them
		}
		if len(files) != len(res.Files) {
			t.Fatalf("%s: %d files started early, %d after", c, len(res.Files), len(files))
		}
		for i := range files {
			if files[i].Path != res.Files[i].Path || !bytes.Equal(files[i].Content, res.Files[i].Content) {
				t.Errorf("%s: %s differs from %s generated after", c, res.Files[i].Path, files[i].Path)
			}
		}
		var early []string
		for _, it := range res.Diags.Items() {
			early = append(early, it.Format(dir))
		}
		var after []string
		for _, it := range d.Items() {
			after = append(after, it.Format(dir))
		}
		if len(early) < len(after) {
			t.Fatalf("%s: diagnostics started early %q, after %q", c, early, after)
		}
		// The run's diagnostics end with the generator's (the model's come first).
		if tail := early[len(early)-len(after):]; !equal(tail, after) {
			t.Errorf("%s: diagnostics started early %q, after %q", c, tail, after)
		}
		if c[:4] == "err_" && len(after) == 0 {
			t.Errorf("%s: no diagnostics from the CRD generator", c)
		}
	}
}

func equal(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
