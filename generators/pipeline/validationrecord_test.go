package pipeline

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/crdforge/crdforge/generators/crd"
	"github.com/crdforge/crdforge/internal/passrecord"
)

// cacheEntries counts the passes recorded in a cache directory.
func cacheEntries(t *testing.T, dir string) int {
	t.Helper()
	n := 0
	err := filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && d.Name() != "trim.txt" {
			n++
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func crdOnly(t *testing.T, dir string, cache *passrecord.Record) *Result {
	t.Helper()
	res, err := Generate(Config{Dir: dir, Only: []string{"crd"}, ValidationRecord: cache})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func messages(res *Result) string {
	var b strings.Builder
	for _, d := range res.Diags.Items() {
		b.WriteString(d.Format("") + "\n")
	}
	return b.String()
}

// TestOnlyCRDsThatPassValidationAreRecorded: a CRD the API server accepts
// without a word is recorded, and a second run prints the same files; a
// CRD it rejects, or warns about, is not, so every run reports the problem.
func TestOnlyCRDsThatPassValidationAreRecorded(t *testing.T) {
	cacheDir := t.TempDir()
	cache, err := passrecord.Open(cacheDir, "crd-validation")
	if err != nil {
		t.Fatal(err)
	}

	widgets := filepath.Join("..", "..", "examples", "widgets")
	first := crdOnly(t, widgets, cache)
	if first.Diags.HasErrors() || len(first.Files) == 0 {
		t.Fatalf("widgets: %d files\n%s", len(first.Files), messages(first))
	}
	if got := cacheEntries(t, cacheDir); got != len(first.Files) {
		t.Fatalf("%d passes recorded for %d CRDs", got, len(first.Files))
	}
	second := crdOnly(t, widgets, cache)
	if len(second.Files) != len(first.Files) || string(second.Files[0].Content) != string(first.Files[0].Content) {
		t.Fatal("a run that found its CRDs recorded printed other files")
	}

	rejected := filepath.Join("..", "..", "testdata", "err_cel")
	for run := range 2 {
		res := crdOnly(t, rejected, cache)
		if !strings.Contains(messages(res), "the API server would reject") {
			t.Fatalf("run %d: the rejection is not reported:\n%s", run, messages(res))
		}
	}

	warned := warningTree(t)
	for run := range 2 {
		res := crdOnly(t, warned, cache)
		if res.Diags.HasErrors() || !strings.Contains(messages(res), "the API server warns") {
			t.Fatalf("run %d: want the API server's warning alone:\n%s", run, messages(res))
		}
	}
	if got := cacheEntries(t, cacheDir); got != len(first.Files) {
		t.Fatalf("%d passes recorded, want widgets' %d alone", got, len(first.Files))
	}
}

// TestARecordedCRDIsNotValidatedAgain: the record is consulted with the
// bytes the CRD is printed as. A CRD the API server rejects, recorded as
// passed (as if an earlier build of crdforge had accepted it), is printed
// without its rejection; without the record it is rejected.
func TestARecordedCRDIsNotValidatedAgain(t *testing.T) {
	dir := filepath.Join("..", "..", "testdata", "err_cel")
	cache, err := passrecord.Open(t.TempDir(), "crd-validation")
	if err != nil {
		t.Fatal(err)
	}
	if res := crdOnly(t, dir, cache); !res.Diags.HasErrors() {
		t.Fatal("err_cel's CRD passes validation")
	}
	res, err := Model(Config{Dir: dir, Only: []string{"crd"}})
	if err != nil || res.Model == nil {
		t.Fatal(err, messages(res))
	}
	printed, err := crd.Marshal(crd.Build(res.Model.Groups[0].Kinds[0]))
	if err != nil {
		t.Fatal(err)
	}
	cache.RecordPass(printed)
	if res := crdOnly(t, dir, cache); res.Diags.HasErrors() || len(res.Files) != 1 {
		t.Fatalf("a recorded CRD was validated again (%d files):\n%s", len(res.Files), messages(res))
	}
}

// warningTree writes, inside this module, a kind whose CRD the API server
// accepts with a warning (a format it does not know).
func warningTree(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("..", "..", "testdata", "_passrecord"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(dir) })
	files := map[string]string{
		"api/v1/groupversion_info.go": "// +kubebuilder:object:generate=true\n// +groupName=example.com\npackage v1\n",
		"api/v1/types.go": `package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// +kubebuilder:object:root=true

// Gear is a test kind.
type Gear struct {
	metav1.TypeMeta   ` + "`json:\",inline\"`" + `
	metav1.ObjectMeta ` + "`json:\"metadata,omitempty\"`" + `

	// Code is in a format the API server does not know.
	// +kubebuilder:validation:Format=no-such-format
	Code string ` + "`json:\"code,omitempty\"`" + `
}

// +kubebuilder:object:root=true

// GearList is a list of Gears.
type GearList struct {
	metav1.TypeMeta ` + "`json:\",inline\"`" + `
	metav1.ListMeta ` + "`json:\"metadata,omitempty\"`" + `
	Items           []Gear ` + "`json:\"items\"`" + `
}
`,
	}
	for name, content := range files {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}
