package check

import (
	"path/filepath"
	"testing"

	"github.com/crdforge/crdforge/generators/crd"
	"github.com/crdforge/crdforge/generators/pipeline"
	"github.com/crdforge/crdforge/internal/passrecord"
)

// TestCheckSharesGeneratesValidationRecord: check records the CRDs that
// pass the API server's validation as generate does, and does not
// validate a recorded one again. err_cel's CRD, which the API server
// rejects, is rejected by check until it is recorded as passed (as if an
// earlier build of crdforge had accepted it), then passes: the record is
// consulted. A run of generate then finds check's record of the widgets'
// CRDs and adds nothing: both key a CRD by the same printed bytes.
func TestCheckSharesGeneratesValidationRecord(t *testing.T) {
	cacheDir := t.TempDir()
	cache, err := passrecord.Open(cacheDir, "crd-validation")
	if err != nil {
		t.Fatal(err)
	}
	rejected := filepath.Join("..", "..", "..", "..", "testdata", "err_cel")
	side, err := Generate(pipeline.Config{Dir: rejected, ValidationRecord: cache})
	if err != nil || !side.Diags.HasErrors() {
		t.Fatalf("err_cel's CRD passes check: %v", err)
	}
	res, err := pipeline.Model(pipeline.Config{Dir: rejected, Only: []string{"crd"}})
	if err != nil || res.Model == nil {
		t.Fatal(err)
	}
	printed, err := crd.Marshal(crd.Build(res.Model.Groups[0].Kinds[0]))
	if err != nil {
		t.Fatal(err)
	}
	cache.RecordPass(printed)
	side, err = Generate(pipeline.Config{Dir: rejected, ValidationRecord: cache})
	if err != nil || side.Diags.HasErrors() || len(side.CRDs) != 1 {
		t.Fatalf("check validated a recorded CRD again: %v %v", err, side.Diags.Items())
	}

	widgets := filepath.Join("..", "..", "..", "..", "examples", "widgets")
	side, err = Generate(pipeline.Config{Dir: widgets, ValidationRecord: cache})
	if err != nil || side.Diags.HasErrors() {
		t.Fatalf("widgets: %v %v", err, side.Diags.Items())
	}
	entries := func() int {
		got, err := filepath.Glob(filepath.Join(cacheDir, "*", "*"))
		if err != nil {
			t.Fatal(err)
		}
		return len(got)
	}
	recorded := entries()
	if recorded != 1+len(side.CRDs) {
		t.Fatalf("%d entries after check, want err_cel's and widgets' %d", recorded, len(side.CRDs))
	}
	if _, err := pipeline.Generate(pipeline.Config{Dir: widgets, Only: []string{"crd"}, ValidationRecord: cache}); err != nil {
		t.Fatal(err)
	}
	if got := entries(); got != recorded {
		t.Errorf("generate recorded %d more: its keys are not check's", got-recorded)
	}
}
