package e2e

import (
	"path/filepath"
	"strings"
	"testing"
)

// imageBuilds are the docs/webhook.md commands that build and push an
// image: no Docker engine runs here and no registry is reachable, so they
// are not run; tools/dockerfile lints the generated Dockerfile instead, as
// the page says.
var imageBuilds = []string{"docker build ", "KO_DOCKER_REPO="}

// TestWebhookPage runs the commands of docs/webhook.md, as written
// (followPage), but the image builds, in a reader's generated crontab
// project with the built crdforge on PATH, against a control plane of its
// own (the page applies crontabs.example.com, which other tests install on
// the suite's): build the webhook and ask for its flags, then crdforge
// certs and the kustomization without cert-manager applied to the API
// server.
func TestWebhookPage(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("-short: builds a webhook and starts a control plane")
	}
	needCluster(t)
	page := filepath.Join(repoRoot, "docs", "webhook.md")
	plan := shellPlan(t, page, func(b Block, command string) bool {
		if hasAnyPrefix(command, imageBuilds) {
			t.Logf("webhook.md:%d: not run here (no Docker engine, no registry): %s", b.Line, command)
			return false
		}
		return true
	})
	if n := countCommands(plan); n < 4 {
		t.Fatalf("webhook.md: %d commands to run, want at least 4 (build, --help, certs, apply)", n)
	}
	project := crontabProject(t)
	crdforgeIn(t, project, "generate", "./...")
	followPage(t, page, plan, startPageShell(t, pageShell{cluster: ownCluster(t), dir: project, path: []string{filepath.Dir(crdforge)}}))
}

// hasAnyPrefix reports whether s starts with any of prefixes.
func hasAnyPrefix(s string, prefixes []string) bool {
	for _, p := range prefixes {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}
