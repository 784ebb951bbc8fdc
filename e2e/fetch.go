package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Fetching says this run only fills the module cache (CRDFORGE_FETCH is
// set, as `make fetch` sets it): a test that needs the module proxy takes
// its steps up to the last that does, then stops. The test tiers run after
// it with GOPROXY=off, so a step that would still reach the network fails
// there instead of passing by chance.
func Fetching() bool { return os.Getenv("CRDFORGE_FETCH") != "" }

// StopIfFetching ends tb, skipped, when Fetching: every step before it
// needed the module proxy; none after it does.
func StopIfFetching(tb testing.TB) {
	tb.Helper()
	if Fetching() {
		tb.Skip("CRDFORGE_FETCH: the modules this test needs are in the module cache")
	}
}

// ServeFromModuleCache lets the go commands that tests run in modules of
// their own (the README's `go mod tidy`, a kubebuilder project's) resolve
// from the module cache when the module proxy is off, as the test tiers run
// (GOPROXY=off): the cache's download directory is itself a module proxy
// (GOPROXY=file://...), which answers from what `make fetch` put there and
// never reaches the network. GOPROXY=off alone refuses even a module the
// cache holds once a command must look up a version (tidy's "latest"). The
// checksum database is off with it: every module in the cache was checked
// against it when it was downloaded.
func ServeFromModuleCache() error {
	if os.Getenv("GOPROXY") != "off" {
		return nil
	}
	out, err := exec.Command("go", "env", "GOMODCACHE").Output()
	if err != nil {
		return fmt.Errorf("go env GOMODCACHE: %w", err)
	}
	cache := filepath.Join(strings.TrimSpace(string(out)), "cache", "download")
	if err := os.Setenv("GOPROXY", "file://"+filepath.ToSlash(cache)); err != nil {
		return err
	}
	return os.Setenv("GOSUMDB", "off")
}
