package e2e

import (
	"context"
	"encoding/json"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// scratchDir makes a new directory under the repository's testdata/_scratch,
// which t's cleanup removes. It is inside the main module, so a project made
// there builds against this checkout's runtime and webhook modules, as a
// user's builds against the published ones; go's ./... patterns skip it.
func scratchDir(t *testing.T, prefix string) string {
	t.Helper()
	base := scratchBase()
	if err := os.MkdirAll(base, 0o755); err != nil {
		t.Fatal(err)
	}
	dir, err := os.MkdirTemp(base, prefix)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := os.RemoveAll(dir); err != nil {
			t.Error(err)
		}
	})
	return dir
}

// removeScratchBase removes testdata/_scratch once the tests are done, if
// they left it empty: not in a test's cleanup, where a parallel test may be
// between making it and making its directory in it.
func removeScratchBase() {
	if repoRoot != "" {
		_ = os.Remove(scratchBase()) // fails if not empty: kept
	}
}

// scratchBase is the directory scratchDir makes its directories in.
func scratchBase() string { return filepath.Join(repoRoot, "testdata", "_scratch") }

// copyProject copies the hand-written files under src that keep accepts
// (by their path relative to src, slash-separated) into dst, with replace
// applied to their contents. Generated files (zz_generated.*) are not
// copied: crdforge generate writes them in dst.
func copyProject(t *testing.T, src, dst string, keep func(rel string) bool, replace *strings.Replacer) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || strings.HasPrefix(d.Name(), "zz_generated") {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil || !keep(filepath.ToSlash(rel)) {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		out := filepath.Join(dst, rel)
		if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
			return err
		}
		return os.WriteFile(out, []byte(replace.Replace(string(b))), 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// moduleDir is module@version's directory in the module cache, which `go
// mod download` fills through the module proxy (or, under GOPROXY=off, the
// cache itself: ServeFromModuleCache). The test skips when it cannot be
// had, or fails under CRDFORGE_E2E_REQUIRED.
func moduleDir(ctx context.Context, t *testing.T, module, version string) string {
	t.Helper()
	cmd := exec.CommandContext(ctx, "go", "mod", "download", "-json", module+"@"+version)
	cmd.Dir = t.TempDir()
	cmd.Env = append(os.Environ(), "GOWORK=off", GoFlags("-mod=mod"))
	b, err := cmd.Output()
	var got struct{ Dir, Error string }
	if jerr := json.Unmarshal(b, &got); err != nil || jerr != nil || got.Dir == "" {
		why := "fetching " + module + "@" + version + " through the module proxy: " + got.Error
		if err != nil {
			why += " (" + err.Error() + ")"
		}
		if os.Getenv("CRDFORGE_E2E_REQUIRED") != "" {
			t.Fatal(why)
		}
		t.Skip(why)
	}
	return got.Dir
}
