package generators

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/crdforge/crdforge/generators/crd"
	"github.com/crdforge/crdforge/generators/internal/synth"
	"github.com/crdforge/crdforge/generators/model"
	"github.com/crdforge/crdforge/internal/diag"
)

// TestCRDsStartWhileTheModelBuildsTheNextKind: in a CRD-only run the model
// hands each kind to the CRD generator as soon as it has built it, before
// it builds the next one, so that printing and validating a CRD overlap the
// model's schema parsing; the files and diagnostics are still those the
// generator makes from the finished model. In a full run, whose model then
// resolves conversions across kinds, the kinds are handed over only once
// the model is complete. It fails if the model hands the kinds over at the
// end in a CRD-only run, or early in a full one.
func TestCRDsStartWhileTheModelBuildsTheNextKind(t *testing.T) {
	// Inside this module, so that the tree's imports resolve.
	dir, err := filepath.Abs(filepath.Join("..", "testdata", "_startkinds"))
	if err != nil {
		t.Fatal(err)
	}
	const n = 2*synth.KindsPerGroup + 3
	if err := synth.Write(dir, n); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(dir) })

	for _, tc := range []struct {
		only  []string
		early bool
	}{{[]string{"crd"}, true}, {nil, false}} {
		cfg, err := Config{Dir: dir, Only: tc.only}.Complete()
		if err != nil {
			t.Fatal(err)
		}
		gens, each, stop := startKinds(cfg.gens)
		var handed []*model.Kind
		var builtBefore []int // kinds the model held when it handed each over
		res, _, err := buildModel(cfg, func(m *model.Model, k *model.Kind) {
			held := 0
			for _, g := range m.Groups {
				held += len(g.Kinds)
			}
			handed = append(handed, k)
			builtBefore = append(builtBefore, held)
			each(m, k)
		})
		if err != nil {
			stop()
			t.Fatal(err)
		}
		if res.Diags.HasErrors() {
			stop()
			t.Fatalf("--only %v: %s", tc.only, messages(res))
		}
		kinds := map[*model.Kind]bool{}
		for _, g := range res.Model.Groups {
			for _, k := range g.Kinds {
				kinds[k] = true
			}
		}
		if len(kinds) != n || len(handed) != n {
			t.Fatalf("--only %v: the model has %d kinds and handed over %d, want %d", tc.only, len(kinds), len(handed), n)
		}
		for i, k := range handed {
			if !kinds[k] {
				t.Errorf("--only %v: kind %s handed over is not the model's", tc.only, k.Name)
			}
			if want := n; tc.early {
				if want = i; builtBefore[i] != want {
					t.Errorf("--only %v: kind %d of %d handed over when the model held %d kinds, want %d (at once)", tc.only, i+1, n, builtBefore[i], want)
				}
			} else if builtBefore[i] != want {
				t.Errorf("--only %v: kind %d of %d handed over when the model held %d kinds, want %d (once complete)", tc.only, i+1, n, builtBefore[i], want)
			}
		}

		// What the started run returns is what the generator makes from
		// the finished model.
		var started crd.Generator
		startedDiags, wantDiags := diag.New(res.Model.Fset), diag.New(res.Model.Fset)
		var got []byte
		for _, g := range gens {
			if s, ok := g.(*crd.Started); ok {
				started = s.Generator
				for _, f := range s.Generate(res.Model, startedDiags) {
					got = append(append(got, f.Path...), f.Content...)
				}
			}
		}
		stop()
		var want []byte
		for _, f := range started.Generate(res.Model, wantDiags) {
			want = append(append(want, f.Path...), f.Content...)
		}
		if len(want) == 0 || !bytes.Equal(got, want) {
			t.Errorf("--only %v: the started run printed %d bytes, the generator %d from the finished model, or they differ", tc.only, len(got), len(want))
		}
		if g, w := formatAll(startedDiags), formatAll(wantDiags); g != w {
			t.Errorf("--only %v: diagnostics of the started run\n%s\nwant\n%s", tc.only, g, w)
		}
	}
}

func formatAll(l *diag.List) string {
	var b bytes.Buffer
	for _, d := range l.Items() {
		b.WriteString(d.Format("") + "\n")
	}
	return b.String()
}
