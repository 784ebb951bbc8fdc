package e2e

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestGeneratePageAPIReference runs the commands docs/generate.md gives for
// the API reference (its ```sh block that names --docs), as written, in a
// copy of testdata/apidocs's API (renames, moves, a stash, a narrowing, a
// hand-written conversion) with the built crdforge on PATH: each must exit
// 0, the first writes the group's page, and the last, --verify, finds it
// current.
func TestGeneratePageAPIReference(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: builds crdforge")
	}
	needCluster(t) // the suite builds crdforge beside its control plane
	page := filepath.Join(repoRoot, "docs", "generate.md")
	blocks, err := Blocks(page)
	if err != nil {
		t.Fatal(err)
	}
	var commands []string
	for _, b := range blocks {
		if b.Lang == "sh" && strings.Contains(b.Body, "--docs") {
			if commands, err = ShellSteps(b.Body); err != nil {
				t.Fatalf("generate.md:%d: %v", b.Line, err)
			}
			break
		}
	}
	if len(commands) < 2 {
		t.Fatalf("generate.md: no ```sh block of --docs commands (found %d commands)", len(commands))
	}
	project := scratchDir(t, "generatepage-")
	copyProject(t, filepath.Join(repoRoot, "testdata", "apidocs"), project, func(rel string) bool {
		return strings.HasPrefix(rel, "api/")
	}, strings.NewReplacer("crdforge/crdforge/testdata/apidocs", "crdforge/crdforge/"+filepath.ToSlash(mustRel(t, repoRoot, project))))
	sh := startPageShell(t, pageShell{dir: project, path: []string{filepath.Dir(crdforge)}})
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	for i, c := range commands {
		out, code, err := sh.Run(ctx, c)
		if err != nil || code != 0 {
			t.Fatalf("%q: exit %d, %v\n%s", c, code, err, tail(out, 4000))
		}
		t.Logf("$ %s\n%s", c, tail(out, 2000))
		if i == 0 {
			if pages, _ := filepath.Glob(filepath.Join(project, "docs", "api", "*.md")); len(pages) != 1 {
				t.Errorf("after %q, pages in docs/api: %v, want the group's", c, pages)
			}
		}
	}
}
