package e2e

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestGeneratePageAPIReference runs the commands docs/generate.md gives for
// the API reference (its ```sh block that names --docs), as written
// (followPage), in a copy of testdata/apidocs's API (renames, moves, a
// stash, a narrowing, a hand-written conversion) with the built crdforge on
// PATH: each must exit 0, the last, --verify, finding the group's page
// current.
func TestGeneratePageAPIReference(t *testing.T) {
	t.Parallel()
	serverIndependent(t)
	if testing.Short() {
		t.Skip("-short: builds crdforge")
	}
	needCluster(t) // the suite builds crdforge beside its control plane
	page := filepath.Join(repoRoot, "docs", "generate.md")
	plan := shellPlan(t, page, func(b Block, _ string) bool { return strings.Contains(b.Body, "--docs") })
	if len(plan) != 1 || len(plan[0].Commands) < 2 {
		t.Fatalf("generate.md: want one ```sh block of --docs commands, found %d", len(plan))
	}
	project := scratchDir(t, "generatepage-")
	copyProject(t, filepath.Join(repoRoot, "testdata", "apidocs"), project, func(rel string) bool {
		return strings.HasPrefix(rel, "api/")
	}, strings.NewReplacer("crdforge/crdforge/testdata/apidocs", "crdforge/crdforge/"+filepath.ToSlash(mustRel(t, repoRoot, project))))
	followPage(t, page, plan, startPageShell(t, pageShell{dir: project, path: []string{filepath.Dir(crdforge)}}))
	if pages, _ := filepath.Glob(filepath.Join(project, "docs", "api", "*.md")); len(pages) != 1 {
		t.Errorf("pages in docs/api: %v, want the group's", pages)
	}
}
