package e2e

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestREADMEUsingCrdforge follows the README's "Install" steps from an
// empty directory: a new module, the Database API of
// testdata/database laid out as the README says (api/v1alpha1, api/v1), then
// every line of the README's setup block, as written, with $CRDFORGE this
// checkout. The result must build, vet, pass its generated round-trip tests,
// be up to date under --verify, and fail --strict on the field the README's
// warning example shows.
func TestREADMEUsingCrdforge(t *testing.T) {
	t.Parallel()
	serverIndependent(t)
	if testing.Short() {
		t.Skip("-short: builds crdforge and a new module")
	}
	if repoRoot == "" {
		t.Skip("no repository root")
	}
	steps, err := READMESteps(filepath.Join(repoRoot, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "dbop")
	bin := filepath.Join(t.TempDir(), "bin")
	env := append(os.Environ(), "CRDFORGE="+repoRoot, "GOBIN="+bin, "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"), GoFlags())
	ctx, cancel := context.WithTimeout(context.Background(), 8*time.Minute)
	defer cancel()
	sh := func(line string) (string, error) {
		cmd := exec.CommandContext(ctx, "sh", "-c", line)
		cmd.Dir, cmd.Env = dir, env
		out, err := cmd.CombinedOutput()
		return string(out), err
	}

	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if out, err := sh("go mod init example.com/dbop"); err != nil {
		t.Fatalf("go mod init: %v\n%s", err, out)
	}
	src := filepath.Join(repoRoot, "testdata", "database", "api")
	for _, f := range []string{"v1/groupversion_info.go", "v1/database_types.go", "v1alpha1/groupversion_info.go", "v1alpha1/database_types.go", "v1alpha1/conversion_test.go"} {
		b, err := os.ReadFile(filepath.Join(src, f))
		if err != nil {
			t.Fatal(err)
		}
		b = []byte(strings.ReplaceAll(string(b), "github.com/crdforge/crdforge/testdata/database", "example.com/dbop"))
		if err := os.MkdirAll(filepath.Join(dir, "api", filepath.Dir(f)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "api", f), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}

	for _, step := range steps {
		start := time.Now()
		out, err := sh(step)
		if err != nil {
			t.Fatalf("README step %q failed: %v\n%s", step, err, tail(out, 3000))
		}
		t.Logf("README step %q: ok (%s)", step, time.Since(start).Round(time.Millisecond))
		if strings.HasPrefix(step, "crdforge generate") && !strings.Contains(out, "did you mean +crdforge:hubfield=Backup.Schedule?") {
			t.Errorf("crdforge generate did not suggest the hubfield marker:\n%s", out)
		}
	}
	StopIfFetching(t)
	for _, check := range []string{"go test -count=1 ./api/...", "crdforge generate --verify ./..."} {
		if out, err := sh(check); err != nil {
			t.Errorf("%s: %v\n%s", check, err, tail(out, 3000))
		}
	}
	out, err := sh("crdforge generate --strict ./...")
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 2 || !strings.Contains(out, "api/v1alpha1/database_types.go:15:2: v1alpha1 DatabaseSpec.BackupSchedule has no counterpart in v1") {
		t.Errorf("crdforge generate --strict: %v, want exit 2 at BackupSchedule:\n%s", err, out)
	}
}
