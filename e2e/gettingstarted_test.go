package e2e

import (
	"path/filepath"
	"regexp"
	"testing"
)

// fetches matches the commands that download modules: under CRDFORGE_FETCH
// the page is followed up to the last of them.
var fetches = regexp.MustCompile(`\bgo (mod (tidy|download)|get|install \S+@)`)

// TestGettingStarted follows docs/getting-started.md from an empty
// directory, word for word (followPage): $CRDFORGE is this checkout; the
// page's kubectl, and crdforge's cluster commands, reach the suite's control
// plane through KUBECONFIG, and it reaches the page's webhook on loopback.
func TestGettingStarted(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("-short: builds crdforge, a new module and its webhook")
	}
	if repoRoot == "" {
		t.Skip("no repository root")
	}
	page := filepath.Join(repoRoot, "docs", "getting-started.md")
	plan := readPage(t, page)
	if !Fetching() {
		needCluster(t) // under CRDFORGE_FETCH the page stops before its cluster
	}
	followPage(t, page, plan, startPageShell(t, pageShell{cluster: cluster, env: []string{"CRDFORGE=" + repoRoot}}))
}
