package check

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/crdforge/crdforge/generators/pipeline"
	"github.com/crdforge/crdforge/internal/testdata/benchcpu"
	"github.com/crdforge/crdforge/internal/testdata/synth"
)

// benchRepo writes the synthetic tree of n kinds into a git repository of
// its own (a module with the main module's requirements, so that it loads
// offline) and commits it.
func benchRepo(b *testing.B, n int) string {
	b.Helper()
	dir := b.TempDir()
	gomod, err := os.ReadFile("../../../../go.mod")
	if err != nil {
		b.Fatal(err)
	}
	var lines []string
	for _, l := range strings.Split(string(gomod), "\n") {
		switch {
		case strings.HasPrefix(l, "module "):
			l = "module example.com/synth"
		case strings.Contains(l, "crdforge/runtime"), strings.HasPrefix(l, "tool "):
			continue
		}
		lines = append(lines, l)
	}
	gosum, err := os.ReadFile("../../../../go.sum")
	if err != nil {
		b.Fatal(err)
	}
	for name, content := range map[string]string{"go.mod": strings.Join(lines, "\n"), "go.sum": string(gosum)} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	if err := synth.Write(dir, n); err != nil {
		b.Fatal(err)
	}
	for _, args := range [][]string{{"init", "-q", "-b", "main"}, {"add", "-A"}, {"commit", "-q", "-m", "synth"}} {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=b", "GIT_AUTHOR_EMAIL=b@example.com", "GIT_COMMITTER_NAME=b", "GIT_COMMITTER_EMAIL=b@example.com")
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	return dir
}

// BenchmarkCheck times crdforge check against a git baseline (HEAD: the
// same tree, so every CRD is compared and none differs) beside a full
// crdforge generate of the same tree, in the same run. Check loads twice
// (the working tree, and the revision's copy, at the same time, as the
// command does) and builds only CRDs on each side; the goal is at most 2.2
// times one generate.
func BenchmarkCheck(b *testing.B) {
	for _, n := range []int{400} {
		dir := benchRepo(b, n)
		b.Run("kinds=400/generate", func(b *testing.B) {
			defer benchcpu.Report(b)()
			for b.Loop() {
				res, err := pipeline.Generate(pipeline.Config{Dir: dir})
				if err != nil || res.Diags.HasErrors() {
					b.Fatalf("%v %v", err, res.Diags.Items())
				}
			}
		})
		b.Run("kinds=400/check", func(b *testing.B) {
			defer benchcpu.Report(b)()
			for b.Loop() {
				cfg := pipeline.Config{Dir: dir}
				baseline := StartGitRevision(context.Background(), cfg, "HEAD")
				nw, err := Generate(cfg)
				if err != nil || nw.Diags.HasErrors() {
					b.Fatalf("%v %v", err, nw.Diags.Items())
				}
				old, err := baseline()
				if err != nil || old.Diags.HasErrors() {
					b.Fatalf("%v %v", err, old.Diags.Items())
				}
				res, err := Compare(Input{Old: old.CRDs, New: nw.CRDs, OldLocator: old.Locator, NewLocator: nw.Locator}, Config{})
				if err != nil {
					b.Fatal(err)
				}
				if len(old.CRDs) != n || len(res.Findings) != 0 {
					b.Fatalf("%d CRDs, %d findings", len(old.CRDs), len(res.Findings))
				}
			}
		})
	}
}
