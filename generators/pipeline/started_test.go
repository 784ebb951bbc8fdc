package pipeline

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/crdforge/crdforge/generators/crd"
	"github.com/crdforge/crdforge/internal/diag"
)

// TestCRDsStartedEarlyAreTheGeneratorsOwn: a run whose CRDs are made while
// the model builds the next kind (crd.Started), with the model's goroutine
// making each or with workers, writes the files and reports the diagnostics
// of a run that makes them once the model is complete. The cases cover a
// kind whose strategy the model's last step turns to None after the CRD
// was made with Webhook (nonefallback, partialtypes; internalhub, whose
// Timer shares packages left to conversion-gen: made again), the
// API server's rejections (err_cel), several kinds and groups, and a
// partial check that loads again (partialtypes).
func TestCRDsStartedEarlyAreTheGeneratorsOwn(t *testing.T) {
	for _, tc := range []string{"nonefallback", "partialtypes", "internalhub", "multikind", "shared", "handwritten", "optout", "webhook", "kubebuilder", "err_cel", "validation"} {
		for _, only := range [][]string{nil, {"crd"}} {
			after := runEarly(t, tc, only, -1)
			if errs := after.Diags.HasErrors(); errs != strings.HasPrefix(tc, "err_") || (!errs && len(after.Files) == 0) {
				t.Fatalf("%s, --only %v: errors %v, %d files", tc, only, errs, len(after.Files))
			}
			for _, workers := range []int{0, 3} {
				got := runEarly(t, tc, only, workers)
				if d := sameResult(after, got); d != "" {
					t.Errorf("%s, --only %v, %d workers: %s", tc, only, workers, d)
				}
			}
		}
	}
}

func runEarly(t *testing.T, testCase string, only []string, workers int) *Result {
	t.Helper()
	res, err := Generate(Config{Dir: filepath.Join("..", "..", "testdata", testCase), Only: only, early: &workers,
		IgnoreUnexportedFields: testCase == "partialtypes"}) // as its flags file says
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func sameResult(want, got *Result) string {
	if len(want.Files) != len(got.Files) {
		return "a different number of files"
	}
	for i := range want.Files {
		if want.Files[i].Path != got.Files[i].Path || !bytes.Equal(want.Files[i].Content, got.Files[i].Content) {
			return "a different " + want.Files[i].Path
		}
	}
	w, g := want.Diags.Items(), got.Diags.Items()
	if len(w) != len(g) {
		return "a different number of diagnostics"
	}
	for i := range w {
		if w[i].Format("") != g[i].Format("") {
			return "diagnostic " + g[i].Format("") + ", want " + w[i].Format("")
		}
	}
	return ""
}

// TestCRDsStartedEarlyAreKeptUnlessTheStrategyChanged: of nonefallback's four
// kinds, the two whose strategy the model's last step turns to None are made
// again; the other two CRDs are those made while the model built the next
// kind. It fails if Generate makes every CRD again, or keeps one made with
// the strategy the kind no longer has (TestCRDsStartedEarlyAreTheGeneratorsOwn
// then fails too).
func TestCRDsStartedEarlyAreKeptUnlessTheStrategyChanged(t *testing.T) {
	inline := 0
	cfg, err := Config{Dir: filepath.Join("..", "..", "testdata", "nonefallback"), Only: []string{"crd"}, early: &inline}.Complete()
	if err != nil {
		t.Fatal(err)
	}
	res, _, run, err := buildModel(cfg, cfg.gens)
	if err != nil || res.Model == nil {
		t.Fatalf("no model: %v", err)
	}
	s, ok := run[0].(*crd.Started)
	if len(run) != 1 || !ok {
		t.Fatalf("generators to run: %T, want one *crd.Started", run)
	}
	files := s.Generate(res.Model, diag.New(res.Model.Fset))
	if len(files) != 4 || s.Kept() != 2 {
		t.Errorf("%d files, %d of them made early; want 4 and 2", len(files), s.Kept())
	}
}
