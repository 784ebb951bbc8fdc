package compat

import (
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/mod/modfile"

	"github.com/crdforge/crdforge/e2e"
	"github.com/crdforge/crdforge/internal/minimums"
)

// TestMatrixHasEveryMinor keeps the README's "every Kubernetes minor" true:
// the matrix starts at the lean modules' minimum (minimums.Runtime and
// minimums.Webhook, which their own test holds to runtime/go.mod and
// webhook/go.mod) and has a row for each
// minor after it, up to the generator's own (go.mod's), the newest crdforge
// is built with. Raising either end without a row fails here, in the unit
// tier, before the matrix runs.
func TestMatrixHasEveryMinor(t *testing.T) {
	root, err := e2e.RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	const apimachinery = minimums.APIMachinery
	for _, lean := range []minimums.Needs{minimums.Runtime, minimums.Webhook} {
		for _, r := range lean.Require {
			if r.Path == apimachinery && r.Version != matrix[0].kubernetes {
				t.Errorf("%s requires %s %s, the matrix's first row is on %s", lean.Module, apimachinery, r.Version, matrix[0].kubernetes)
			}
		}
	}
	for i, r := range matrix {
		if want := minor(matrix[0].kubernetes) + i; minor(r.kubernetes) != want {
			t.Errorf("row %d is on Kubernetes %s, want minor %d: a row per minor", i, r.kubernetes, want)
		}
	}
	newest := requirement(t, filepath.Join(root, "go.mod"), apimachinery)
	if last := matrix[len(matrix)-1].kubernetes; minor(last) != minor(newest) {
		t.Errorf("the matrix ends at Kubernetes %s, crdforge is built with %s %s", last, apimachinery, newest)
	}
}

// requirement is the version the go.mod at path requires of module: the
// generator's own go.mod, which no table states.
func requirement(t *testing.T, path, module string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	f, err := modfile.ParseLax(path, b, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range f.Require {
		if r.Mod.Path == module {
			return r.Mod.Version
		}
	}
	t.Fatalf("%s requires no %s", path, module)
	return ""
}
