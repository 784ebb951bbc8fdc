package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/crdforge/crdforge/internal/cachedir"
)

// TestMain keeps this package's runs of generate out of the user's cache
// directory: each test run records its passes in a directory of its own.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "crdforge-cli-cache-")
	if err != nil {
		panic(err)
	}
	if err := os.Setenv(cachedir.Env, dir); err != nil {
		panic(err)
	}
	code := m.Run()
	_ = os.RemoveAll(dir)
	os.Exit(code)
}

// TestTheValidationRecordIsWhereTheEnvironmentSays: generate records the
// CRDs that passed in $CRDFORGE_CACHE, or in crdforge's directory of the
// user's cache directory; "off" records nothing; a cache it cannot use is
// a warning, and the run validates every CRD.
func TestTheValidationRecordIsWhereTheEnvironmentSays(t *testing.T) {
	dir := scratchCase(t, "webhook")
	// The passes, not the up-to-date check's records beside them (runs/).
	entries := func(root string) int {
		n := 0
		_ = filepath.WalkDir(root, func(_ string, d os.DirEntry, err error) error {
			if err == nil && d.IsDir() && d.Name() == "runs" {
				return filepath.SkipDir
			}
			if err == nil && !d.IsDir() && d.Name() != "trim.txt" {
				n++
			}
			return nil
		})
		return n
	}
	generate := func() string {
		t.Helper()
		code, _, stderr := run(t, dir, "generate", "--only", "crd", "./...")
		if code != ExitOK {
			t.Fatalf("exit %d\n%s", code, stderr)
		}
		return stderr
	}

	set := t.TempDir()
	t.Setenv(cachedir.Env, set)
	generate()
	if got := entries(set); got != 1 {
		t.Errorf("%s=%s: %d passes recorded there, want the one CRD's", cachedir.Env, set, got)
	}

	// The go command's build cache is in the user's cache directory too:
	// keep it where it is.
	gocache, err := exec.Command("go", "env", "GOCACHE").Output()
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("GOCACHE", strings.TrimSpace(string(gocache)))
	home := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", home)
	t.Setenv(cachedir.Env, "")
	generate()
	if got := entries(filepath.Join(home, "crdforge")); got != 1 {
		t.Errorf("%s unset: %d passes recorded in the user's cache directory, want 1", cachedir.Env, got)
	}

	off := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", off)
	t.Setenv(cachedir.Env, "off")
	generate()
	if got := entries(filepath.Join(off, "crdforge")); got != 0 {
		t.Errorf("%s=off: %d passes recorded", cachedir.Env, got)
	}

	t.Setenv(cachedir.Env, "relative")
	if stderr := generate(); !strings.Contains(stderr, "warning: validating every CRD: "+cachedir.Env+"=relative is not an absolute path") {
		t.Errorf("a relative cache directory: no warning:\n%s", stderr)
	}
}
