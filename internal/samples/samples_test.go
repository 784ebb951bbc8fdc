package samples

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/crdforge/crdforge/internal/diag"
	"github.com/crdforge/crdforge/internal/output"
)

// gadgetCRD is the CRD the golden case testdata/samples generates.
const gadgetCRD = "../../testdata/samples/want/config/crd/bases/samples.example.com_gadgets.yaml"

// A sample at a version the CRD does not serve, or a file that is not YAML
// objects, is a warning (kubectl would refuse it, but no schema says why);
// a kind no generated CRD defines is not looked at.
func TestCheckWarnsOfWhatItCannotCheck(t *testing.T) {
	dir := t.TempDir()
	b, err := os.ReadFile(gadgetCRD)
	if err != nil {
		t.Fatal(err)
	}
	write := func(name, content string) {
		if err := os.MkdirAll(filepath.Join(dir, Dir), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, Dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("old.yaml", "apiVersion: samples.example.com/v1alpha1\nkind: Gadget\nmetadata: {name: old}\n")
	write("other.yaml", "apiVersion: other.example.com/v1\nkind: Gadget\nmetadata: {name: x}\nspec: {replicas: 99}\n")
	write("broken.yaml", "- just\n- a list\n")
	write("notes.txt", "not a sample")
	diags := diag.New(nil)
	Check(dir, []output.File{{Path: filepath.Join(dir, "crd.yaml"), Content: b}}, diags)
	var got []string
	for _, d := range diags.Items() {
		got = append(got, strings.SplitN(d.Format(dir), "\n", 2)[0])
	}
	want := []string{
		"config/samples/broken.yaml: warning: sample not checked: not YAML objects",
		"config/samples/old.yaml:1:1: warning: sample Gadget old at v1alpha1: not checked",
	}
	if !slices.Equal(got, want) {
		t.Errorf("diagnostics\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
