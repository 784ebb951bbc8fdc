package e2e

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestValidatePage follows docs/validate.md word for word (followPage) in
// a copy of testdata/validate, a project with the Gizmo CRD in
// config/crd/bases and a sample, with the built crdforge on PATH: every
// command exits 0 (the page's refused objects end in `|| echo`), and every
// output the page shows is printed.
func TestValidatePage(t *testing.T) {
	t.Parallel()
	serverIndependent(t)
	if testing.Short() {
		t.Skip("-short: builds crdforge")
	}
	needCluster(t) // the suite builds crdforge beside its control plane
	page := filepath.Join(repoRoot, "docs", "validate.md")
	plan := readPage(t, page)
	if n := countCommands(plan); n < 5 {
		t.Fatalf("validate.md: %d commands, want at least 5", n)
	}
	project := t.TempDir()
	copyProject(t, filepath.Join(repoRoot, "e2e", "testdata", "validate"), project, func(string) bool { return true }, strings.NewReplacer())
	followPage(t, page, plan, startPageShell(t, pageShell{dir: project, path: []string{filepath.Dir(crdforge)}}))
}
