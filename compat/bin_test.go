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

// bin is the directory crdforge is installed into, shared by every project
// of the test process. The README's install step (go install
// ./cmd/crdforge) then finds crdforge up to date in every project but the
// first: the generator is built from this checkout alone, with the local
// Go, whatever the project's versions and toolchain, and linking it again
// for each row (some 4 CPU-seconds) is the same work redone.
var bin struct {
	sync.Mutex
	dir string
}

func TestMain(m *testing.M) {
	code := m.Run()
	if bin.dir != "" {
		if err := os.RemoveAll(bin.dir); err != nil {
			fmt.Fprintln(os.Stderr, err)
		}
	}
	os.Exit(code)
}

// crdforgeBin returns the bin directory with crdforge installed in it,
// taking the README's install step in root with env (a project's) the first
// time. Projects run their own install step after this one, when nothing is
// left to write, so that two of them running at once never replace the
// binary under each other.
func crdforgeBin(ctx context.Context, t *testing.T, root string, env []string) string {
	t.Helper()
	bin.Lock()
	defer bin.Unlock()
	if bin.dir != "" {
		return bin.dir
	}
	dir, err := os.MkdirTemp("", "crdforge-compat-bin")
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.CommandContext(ctx, "go", "install", "./cmd/crdforge")
	cmd.Dir = root
	cmd.Env = append(slices.Clip(env), "GOBIN="+dir)
	out, err := cmd.CombinedOutput()
	if err == nil {
		_, err = os.Stat(filepath.Join(dir, "crdforge"))
	}
	if err != nil {
		_ = os.RemoveAll(dir)
		t.Fatalf("go install ./cmd/crdforge: %v\n%s", err, out)
	}
	bin.dir = dir
	return dir
}
