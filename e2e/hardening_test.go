package e2e

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"

	"github.com/crdforge/crdforge/internal/manifestcheck"
)

// TestHelmChartInstallsWithEveryValue installs the chart crdforge generate
// --helm writes for a reader's crontab project with the real helm (helm
// install, not a dry run: no pod runs on envtest, so an install is as cheap,
// and Helm 4 creates the objects with server-side apply, so the API
// server's own validation checks every field), first with its default
// values, then with e2e/testdata/helm/all-values.yaml, which sets every
// value values.schema.json has to something other than its default (the
// test fails on a value the file misses). Each rendering is first decoded
// strictly (manifestcheck); after each install every object the release
// holds is read back from the API server. The cluster holds cert-manager's
// CRDs, since the defaults render its Issuer and Certificate.
func TestHelmChartInstallsWithEveryValue(t *testing.T) {
	t.Parallel()
	c, project := hardeningCluster(t)
	crdforgeIn(t, project, "generate", "--only", "crd,deprecation,helm", "./...")
	chart := chartIn(t, project)
	all := filepath.Join(repoRoot, "e2e", "testdata", "helm", "all-values.yaml")
	setsEveryValue(t, chart, all)

	h := &helmCLI{t: t, bin: needTool(t, repoRoot, "helm"), env: append(append(os.Environ(), "KUBECONFIG="+c.Kubeconfig), helmHome(t)...)}
	// One release and namespace for all: the default install keeps its
	// CRD on uninstall, and only the same release takes it over. Every
	// value leaves the CRDs out (crds.enabled false); the third install
	// puts them back, with every other value, and its uninstall deletes
	// them (crds.keep false).
	const release, ns = "crontab", "crontab-system"
	for _, values := range [][]string{nil, {"-f", all}, {"-f", all, "--set", "crds.enabled=true"}} {
		if _, err := manifestcheck.Decode([]byte(h.run(append([]string{"template", release, chart, "-n", ns}, values...)...))); err != nil {
			t.Fatalf("helm template %v: %v", values, err)
		}
		h.run(append([]string{"install", release, chart, "-n", ns, "--create-namespace"}, values...)...)
		installed(t, c, h.run("get", "manifest", release, "-n", ns))
		h.run("uninstall", release, "-n", ns)
	}
	// The API server deletes a CRD once its objects are gone: a moment.
	if _, _, err := c.Kubectl(context.Background(), nil, "wait", "--for=delete", "crd/crontabs.example.com", "--timeout=60s"); err != nil {
		t.Errorf("crds.keep=false: helm uninstall left the CRD: %v", err)
	}
}

// TestNetworkPolicyComponentApplies applies, with server-side apply, a
// reader's kustomization that adds the network-policy component to
// config/webhook, and reads the NetworkPolicy back.
func TestNetworkPolicyComponentApplies(t *testing.T) {
	t.Parallel()
	c, project := hardeningCluster(t)
	crdforgeIn(t, project, "generate", "./...")
	mine := filepath.Join(project, "config", "mine")
	if err := os.MkdirAll(mine, 0o755); err != nil {
		t.Fatal(err)
	}
	overlay := "resources:\n- ../webhook\ncomponents:\n- ../webhook/network-policy\n"
	if err := os.WriteFile(filepath.Join(mine, "kustomization.yaml"), []byte(overlay), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if out, _, err := c.Kubectl(ctx, nil, "apply", "--server-side", "-k", mine); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	out, _, err := c.Kubectl(ctx, nil, "get", "networkpolicy", "-n", "crontab-system", "crontab-webhook", "-o", "jsonpath={.spec.ingress[*].ports[*].port}")
	if err != nil || out != "9443 8080" {
		t.Errorf("the NetworkPolicy's ports: %q (%v), want 9443 8080", out, err)
	}
}

// hardeningCluster is a control plane of t's own, with cert-manager's CRDs,
// and a reader's crontab project (crontabProject): both tests install
// crontabs.example.com, which others install on the suite's.
func hardeningCluster(t *testing.T) (*Cluster, string) {
	t.Helper()
	crds := moduleDir(context.Background(), t, certManager, certManagerVersion)
	StopIfFetching(t)
	needCluster(t)
	c := ownCluster(t)
	for _, kind := range []string{"issuers", "certificates"} {
		installCRD(t, c, filepath.Join(crds, "deploy", "crds", "cert-manager.io_"+kind+".yaml"))
	}
	return c, crontabProject(t)
}

// installed fails the test unless every object of manifest, a release's,
// is on c: kubectl get -f reads each back from the API server.
func installed(t *testing.T, c *Cluster, manifest string) {
	t.Helper()
	out, _, err := c.Kubectl(context.Background(), []byte(manifest), "get", "-f", "-", "-o", "name")
	if err != nil {
		t.Fatalf("the release's objects: %v\n%s", err, out)
	}
	t.Logf("installed:\n%s", out)
}

// setsEveryValue fails the test for each value chart's values.schema.json
// types that the values file all leaves unset or sets to the default of
// the chart's values.yaml. A value is a schema property without properties
// of its own; an object with properties is walked into.
func setsEveryValue(t *testing.T, chart, all string) {
	t.Helper()
	var schema map[string]any
	if err := json.Unmarshal(readFile(t, filepath.Join(chart, "values.schema.json")), &schema); err != nil {
		t.Fatal(err)
	}
	defaults, set := yamlMap(t, filepath.Join(chart, "values.yaml")), yamlMap(t, all)
	var missed []string
	walkValues(schema, nil, func(path []string) {
		got, ok := valueAt(set, path)
		if want, _ := valueAt(defaults, path); !ok || reflect.DeepEqual(got, want) {
			missed = append(missed, strings.Join(path, "."))
		}
	})
	slices.Sort(missed)
	if len(missed) > 0 {
		t.Errorf("%s sets no value other than the default for %s", all, strings.Join(missed, ", "))
	}
}

// walkValues calls leaf with the path of every value below schema.
func walkValues(schema map[string]any, path []string, leaf func([]string)) {
	props, ok := schema["properties"].(map[string]any)
	if !ok {
		leaf(path)
		return
	}
	for name, sub := range props {
		walkValues(sub.(map[string]any), append(slices.Clone(path), name), leaf)
	}
}

func valueAt(m map[string]any, path []string) (any, bool) {
	var v any = m
	for _, p := range path {
		mm, ok := v.(map[string]any)
		if !ok {
			return nil, false
		}
		if v, ok = mm[p]; !ok {
			return nil, false
		}
	}
	return v, true
}

func yamlMap(t *testing.T, file string) map[string]any {
	t.Helper()
	var m map[string]any
	if err := yaml.Unmarshal(readFile(t, file), &m); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	return m
}

func readFile(t *testing.T, file string) []byte {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
