package compat

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sync"
	"testing"
)

// bins are the directories crdforge is installed into, one per toolchain,
// shared by every project of the test process on that toolchain. The
// README's install step (go install ./cmd/crdforge) then finds crdforge up
// to date in all of them but the first: the generator is built from this
// checkout alone, whatever the project's versions, and linking it again
// for each row (some 4 CPU-seconds) is the same work redone.
var bins struct {
	sync.Mutex
	base string
	dirs map[string]string
}

func TestMain(m *testing.M) {
	code := m.Run()
	if bins.base != "" {
		if err := os.RemoveAll(bins.base); err != nil {
			fmt.Fprintln(os.Stderr, err)
		}
	}
	os.Exit(code)
}

// crdforgeBin returns toolchain's bin directory with crdforge installed in
// it, taking the README's install step in root with env (a project's, on
// that toolchain) the first time. Projects run their own install step after
// this one, when nothing is left to write, so that two of them running at
// once never replace the binary under each other.
func crdforgeBin(ctx context.Context, t *testing.T, root, toolchain string, env []string) string {
	t.Helper()
	bins.Lock()
	defer bins.Unlock()
	if dir, ok := bins.dirs[toolchain]; ok {
		return dir
	}
	if bins.base == "" {
		base, err := os.MkdirTemp("", "crdforge-compat-bin")
		if err != nil {
			t.Fatal(err)
		}
		bins.base, bins.dirs = base, map[string]string{}
	}
	dir := filepath.Join(bins.base, toolchain)
	cmd := exec.CommandContext(ctx, "go", "install", "./cmd/crdforge")
	cmd.Dir = root
	cmd.Env = append(slices.Clip(env), "GOBIN="+dir)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go install ./cmd/crdforge with %s: %v\n%s", toolchain, err, out)
	}
	if _, err := os.Stat(filepath.Join(dir, "crdforge")); err != nil {
		t.Fatal(err)
	}
	bins.dirs[toolchain] = dir
	return dir
}
