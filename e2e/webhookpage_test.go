package e2e

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// imageBuilds are the docs/webhook.md commands that build and push an
// image: no Docker engine runs here and no registry is reachable, so they
// are not run; tools/dockerfile lints the generated Dockerfile instead, as
// the page says.
var imageBuilds = []string{"docker build ", "KO_DOCKER_REPO="}

// TestWebhookPage runs the commands of docs/webhook.md, as written, but
// the image builds, in a reader's generated crontab project with the built
// crdforge on PATH, against a control plane of its own (the page applies
// crontabs.example.com, which other tests install on the suite's): build
// the webhook and ask for its flags, then crdforge certs and the
// kustomization without cert-manager applied to the API server.
func TestWebhookPage(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: builds a webhook and starts a control plane")
	}
	needCluster(t)
	page := filepath.Join(repoRoot, "docs", "webhook.md")
	blocks, err := Blocks(page)
	if err != nil {
		t.Fatal(err)
	}
	project := crontabProject(t)
	crdforgeIn(t, project, "generate", "./...")
	sh := startPageShell(t, pageShell{cluster: ownCluster(t), dir: project, path: []string{filepath.Dir(crdforge)}})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	ran := 0
	for _, b := range blocks {
		if b.Lang != "sh" {
			continue
		}
		commands, err := ShellSteps(b.Body)
		if err != nil {
			t.Fatalf("webhook.md:%d: %v", b.Line, err)
		}
		for _, c := range commands {
			if hasAnyPrefix(c, imageBuilds) {
				t.Logf("webhook.md:%d: not run here (no Docker engine, no registry): %s", b.Line, c)
				continue
			}
			out, code, err := sh.Run(ctx, c)
			if err != nil || code != 0 {
				t.Fatalf("webhook.md:%d: %q: exit %d, %v\n%s", b.Line, c, code, err, tail(out, 4000))
			}
			t.Logf("webhook.md:%d: $ %s\n%s", b.Line, c, tail(out, 2000))
			ran++
		}
	}
	if ran < 4 {
		t.Errorf("%d of the page's commands ran, want at least 4 (build, --help, certs, apply)", ran)
	}
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
