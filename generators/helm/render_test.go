package helm_test

import (
	"encoding/base64"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/crdforge/crdforge/generators/pipeline"
	"github.com/crdforge/crdforge/internal/manifestcheck"
)

// helmBin is bin/helm (make helm builds it from tools/helm), else the one
// on PATH; the test skips without either, as deploy's does without kubectl.
func helmBin(t *testing.T) string {
	t.Helper()
	bin, err := filepath.Abs(filepath.Join("..", "..", "..", "bin", "helm"))
	if _, statErr := os.Stat(bin); err != nil || statErr != nil {
		if bin, err = exec.LookPath("helm"); err != nil {
			t.Skip("no helm (run make helm, or put one on PATH): cannot render the generated chart")
		}
	}
	return bin
}

// crontabChart writes the chart crdforge generates for examples/crontab
// into a temporary directory, and returns the chart's directory.
func crontabChart(t *testing.T) string {
	t.Helper()
	return writeChart(t, pipeline.Config{Dir: "../../examples/crontab", Only: []string{"helm"}})
}

// writeChart writes the chart crdforge generates as cfg says into a
// temporary directory, and returns the chart's directory.
func writeChart(t *testing.T, cfg pipeline.Config) string {
	t.Helper()
	example := cfg.Dir
	res, err := pipeline.Generate(cfg)
	if err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	abs, _ := filepath.Abs(example)
	for _, f := range res.Files {
		p := f.Path
		if r, err := filepath.Rel(abs, p); filepath.IsAbs(p) && err == nil {
			p = r
		}
		p = filepath.Join(root, p)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, f.Content, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return filepath.Join(root, "charts", filepath.Base(example))
}

// helmTemplate runs helm template on chart with args; helm's home is the
// test's, so that no user's repositories or plugins take part.
func helmTemplate(t *testing.T, bin, chart string, args ...string) (string, error) {
	t.Helper()
	home := t.TempDir()
	cmd := exec.Command(bin, append([]string{"template", "crontab", chart, "--namespace", "crontab-system"}, args...)...)
	cmd.Env = append(os.Environ(), "HELM_CACHE_HOME="+home, "HELM_CONFIG_HOME="+home, "HELM_DATA_HOME="+home)
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// helm template reads no cluster, so the Secret the chart would read the CA
// from is never found there: without cert-manager and without a caBundle
// the render fails, saying what to set, rather than print a CRD that
// converts through a webhook nobody trusts. A caBundle given, or
// cert-manager on, renders; with cert-manager, a CA of its own signs the
// serving certificate, so that renewing it leaves the caBundle as it was.
func TestChartNeedsACA(t *testing.T) {
	bin := helmBin(t)
	chart := crontabChart(t)

	out, err := helmTemplate(t, bin, chart, "--set", "certManager.enabled=false")
	if err == nil {
		t.Errorf("helm template without cert-manager or a caBundle succeeded:\n%s", out)
	}
	for _, want := range []string{"no CA is found for their caBundle", "certManager.enabled=true", "caBundle",
		"crontab-system/crontab-webhook-service-cert"} {
		if !strings.Contains(out, want) {
			t.Errorf("helm template's error lacks %q:\n%s", want, out)
		}
	}

	ca := base64.StdEncoding.EncodeToString([]byte("a CA"))
	out, err = helmTemplate(t, bin, chart, "--set", "certManager.enabled=false", "--set", "caBundle="+ca)
	if err != nil || !strings.Contains(out, "caBundle: "+ca+"\n") || strings.Contains(out, "cert-manager.io") {
		t.Errorf("helm template with a caBundle: %v, want the CRD with it and no cert-manager object:\n%s", err, out)
	}

	out, err = helmTemplate(t, bin, chart, "--set", "certManager.enabled=true")
	if err != nil || strings.Contains(out, "caBundle:") || !strings.Contains(out, "cert-manager.io/inject-ca-from: crontab-system/crontab-webhook-service-cert\n") {
		t.Fatalf("helm template with cert-manager: %v, want the CRD injected from the serving Certificate, without a caBundle:\n%s", err, out)
	}
	if err := manifestcheck.CAChain([]byte(out), "crontab-system", "crontab-webhook-service-cert"); err != nil {
		t.Errorf("the chart's serving Certificate: %v", err)
	}
}
