package e2e

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
)

// certManager is the cert-manager release whose CRDs TestHelmPage's
// cluster holds, from the module's deploy/crds.
const certManager, certManagerVersion = "github.com/cert-manager/cert-manager", "v1.21.2"

// TestHelmPage follows docs/helm.md word for word (followPage) in a copy of
// examples/crontab's API named crontab, as a reader does in their project,
// with the built crdforge and bin/helm on PATH. It has a control plane of
// its own: the page installs crontabs.example.com, which other tests
// install on the suite's. That cluster holds cert-manager's CRDs, as one
// with cert-manager installed does, so the page's cert-manager install
// creates its Issuer and Certificate against cert-manager's own schemas;
// no cert-manager runs to issue the certificate or inject its CA.
func TestHelmPage(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("-short: starts a control plane and installs a chart with helm")
	}
	if repoRoot == "" {
		t.Skip("no repository root")
	}
	page := filepath.Join(repoRoot, "docs", "helm.md")
	plan := readPage(t, page)
	crds := moduleDir(context.Background(), t, certManager, certManagerVersion)
	StopIfFetching(t)
	needCluster(t)
	helm := needTool(t, repoRoot, "helm")

	c := ownCluster(t)
	for _, kind := range []string{"issuers", "certificates"} {
		installCRD(t, c, filepath.Join(crds, "deploy", "crds", "cert-manager.io_"+kind+".yaml"))
	}

	project := crontabProject(t)
	sh := startPageShell(t, pageShell{cluster: c, dir: project, path: []string{filepath.Dir(crdforge), filepath.Dir(helm)},
		env: helmHome(t)})
	followPage(t, page, plan, sh)
}

// ownCluster starts a control plane for t alone (a few seconds), which
// t's cleanup stops: for a test that installs what others install on the
// suite's.
func ownCluster(t *testing.T) *Cluster {
	t.Helper()
	c, err := StartCluster(assetsDir, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := c.Stop(); err != nil {
			t.Error(err)
		}
	})
	return c
}

// crontabProject is a reader's project named crontab: a copy of
// examples/crontab's API (v1beta1 and v1, a hand-written conversion), in a
// scratch directory, its imports rewritten to where it is.
func crontabProject(t *testing.T) string {
	t.Helper()
	project := filepath.Join(scratchDir(t, "crontab-"), "crontab")
	copyProject(t, filepath.Join(repoRoot, "examples", "crontab"), project, func(rel string) bool {
		return strings.HasPrefix(rel, "api/") || rel == "generate.go"
	}, strings.NewReplacer("crdforge/crdforge/examples/crontab", "crdforge/crdforge/"+filepath.ToSlash(mustRel(t, repoRoot, project))))
	return project
}

// installCRD creates the CRD in file on c and waits until it is served.
func installCRD(t *testing.T, c *Cluster, file string) {
	t.Helper()
	crd, err := LoadCRD(file)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if err := c.ApplyCRD(ctx, crd); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	if err := c.WaitEstablished(ctx, crd.GetName()); err != nil {
		t.Fatal(err)
	}
}

// helmHome keeps helm's cache, configuration and data in t's temporary
// directory, as environment variables.
func helmHome(t *testing.T) []string {
	home := t.TempDir()
	return []string{"HELM_CACHE_HOME=" + filepath.Join(home, "cache"), "HELM_CONFIG_HOME=" + filepath.Join(home, "config"),
		"HELM_DATA_HOME=" + filepath.Join(home, "data")}
}

func mustRel(t *testing.T, base, target string) string {
	t.Helper()
	rel, err := filepath.Rel(base, target)
	if err != nil {
		t.Fatal(err)
	}
	return rel
}
