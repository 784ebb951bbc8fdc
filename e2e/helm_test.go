package e2e

import (
	"context"
	"encoding/base64"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// helmCLI runs bin/helm (make helm builds it from tools/helm) against the
// suite's control plane, with its cache, config and data in the test's
// temporary directory.
type helmCLI struct {
	t   *testing.T
	bin string
	env []string
}

// newHelm finds bin/helm (needTool).
func newHelm(t *testing.T) *helmCLI {
	t.Helper()
	bin := needTool(t, repoRoot, "helm")
	env := append(append(os.Environ(), "KUBECONFIG="+cluster.Kubeconfig), helmHome(t)...)
	return &helmCLI{t: t, bin: bin, env: env}
}

// run runs helm with args and fails the test unless it exits 0.
func (h *helmCLI) run(args ...string) string {
	h.t.Helper()
	cmd := exec.Command(h.bin, args...)
	cmd.Env = h.env
	out, err := cmd.CombinedOutput()
	if err != nil {
		h.t.Fatalf("helm %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// TestHelmChart takes the chart crdforge generate --helm writes through
// its life with the real helm and API server: a one-version API's chart
// (the CRD alone) installed; crdforge new-version, which brings the
// webhook into the chart, linted and templated with cert-manager on and
// off; helm upgrade, after which the CRD serves the new version and
// converts through the release's Service in the release's namespace, with
// the CA given; helm uninstall, which leaves the CRD and its objects, and
// which a second helm install takes over.
func TestHelmChart(t *testing.T) {
	t.Parallel()
	needCluster(t)
	h := newHelm(t)
	ctx := context.Background()
	const group, ns, release = "helm.e2e.crdforge.io", "helm-e2e", "crontabs"
	crdName := "crontabs." + group
	dir := lifeProject(t, group)
	crdforgeIn(t, dir, "generate", "--helm", "./...")
	chart := chartIn(t, dir)
	t.Cleanup(func() { _ = cluster.Dynamic.Resource(CRDResource).Delete(ctx, crdName, metav1.DeleteOptions{}) })

	h.run("lint", "--strict", chart)
	if out := h.run("template", release, chart, "-n", ns); strings.Contains(out, "kind: Deployment") || !strings.Contains(out, "kind: CustomResourceDefinition") {
		t.Errorf("a one-version API's chart, want its CRD alone:\n%s", out)
	}
	h.run("install", release, chart, "-n", ns, "--create-namespace")
	crd := getCRD(t, crdName)
	if got := crd.GetAnnotations()["helm.sh/resource-policy"]; got != "keep" {
		t.Errorf("installed CRD's helm.sh/resource-policy = %q, want keep", got)
	}
	v1 := schema.GroupVersionResource{Group: group, Version: "v1", Resource: "crontabs"}
	obj := &unstructured.Unstructured{Object: map[string]any{"apiVersion": group + "/v1", "kind": "CronTab",
		"metadata": map[string]any{"name": "kept", "namespace": ns}, "host": "h", "port": "1"}}
	if err := cluster.WaitEstablished(ctx, crdName); err != nil {
		t.Fatal(err)
	}
	if _, err := cluster.Dynamic.Resource(v1).Namespace(ns).Create(ctx, obj, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}

	newVersionV2(t, dir)
	crdforgeIn(t, dir, "generate", "--helm", "./...")
	caBundle := base64.StdEncoding.EncodeToString(cluster.Config.CAData) // any PEM CA will do: no pod runs
	templateWithAndWithoutCertManager(t, h, chart, ns, release, caBundle)

	h.run("upgrade", release, chart, "-n", ns, "--set", "certManager.enabled=false", "--set", "caBundle="+caBundle)
	upgraded(t, getCRD(t, crdName), ns, release, caBundle)

	out := h.run("uninstall", release, "-n", ns)
	t.Logf("helm uninstall:\n%s", out)
	// A CRD helm deleted would still be there a while, its objects being
	// cleaned up: kept means not being deleted.
	if crd := getCRD(t, crdName); crd.GetDeletionTimestamp() != nil {
		t.Errorf("helm uninstall deletes CRD %s", crdName)
	}
	if _, err := cluster.Dynamic.Resource(v1).Namespace(ns).Get(ctx, "kept", metav1.GetOptions{}); err != nil {
		t.Errorf("the CronTab stored before helm uninstall: %v", err)
	}
	deployments := schema.GroupVersionResource{Group: "apps", Version: "v1", Resource: "deployments"}
	if list, err := cluster.Dynamic.Resource(deployments).Namespace(ns).List(ctx, metav1.ListOptions{}); err != nil || len(list.Items) != 0 {
		t.Errorf("after helm uninstall, Deployments in %s: %v (%v), want none", ns, list, err)
	}
	// Installed again, the release takes the kept CRD over (docs/helm.md).
	h.run("install", release, chart, "-n", ns, "--set", "certManager.enabled=false", "--set", "caBundle="+caBundle)
	h.run("uninstall", release, "-n", ns)
}

// templateWithAndWithoutCertManager lints and templates the chart with
// cert-manager on (its Issuer and Certificate, the CRD's inject-ca-from
// naming the release's namespace, no caBundle) and off (no cert-manager
// object, the caBundle given).
func templateWithAndWithoutCertManager(t *testing.T, h *helmCLI, chart, ns, release, caBundle string) {
	t.Helper()
	h.run("lint", "--strict", chart, "--set", "certManager.enabled=true")
	h.run("lint", "--strict", chart, "--set", "certManager.enabled=false", "--set", "caBundle="+caBundle)
	on := h.run("template", release, chart, "-n", ns, "--set", "certManager.enabled=true")
	for _, want := range []string{"kind: Issuer", "kind: Certificate", "kind: Deployment", "kind: Service", "kind: PodDisruptionBudget",
		"cert-manager.io/inject-ca-from: " + ns + "/"} {
		if !strings.Contains(on, want) {
			t.Errorf("helm template with cert-manager: no %q", want)
		}
	}
	if strings.Contains(on, "caBundle:") {
		t.Errorf("helm template with cert-manager sets a caBundle, which its CA injector owns")
	}
	off := h.run("template", release, chart, "-n", ns, "--set", "certManager.enabled=false", "--set", "caBundle="+caBundle)
	if strings.Contains(off, "cert-manager.io") || !strings.Contains(off, "caBundle: "+caBundle+"\n") {
		t.Errorf("helm template without cert-manager: want no cert-manager object nor annotation, and the caBundle given:\n%s", off)
	}
}

// upgraded checks the CRD after helm upgrade: v2 served, and the
// conversion calling the release's Service, in the release's namespace,
// trusting caBundle.
func upgraded(t *testing.T, crd *unstructured.Unstructured, ns, release, caBundle string) {
	t.Helper()
	var served []string
	for _, v := range Versions(crd) {
		if s, _ := v["served"].(bool); s {
			served = append(served, v["name"].(string))
		}
	}
	if !slices.Contains(served, "v2") {
		t.Errorf("after helm upgrade, served versions %v, want v2 among them", served)
	}
	cc, _, _ := unstructured.NestedMap(crd.Object, "spec", "conversion", "webhook", "clientConfig")
	svcNS, _, _ := unstructured.NestedString(cc, "service", "namespace")
	svcName, _, _ := unstructured.NestedString(cc, "service", "name")
	ca, _, _ := unstructured.NestedString(cc, "caBundle")
	services := schema.GroupVersionResource{Version: "v1", Resource: "services"}
	list, err := cluster.Dynamic.Resource(services).Namespace(ns).List(context.Background(), metav1.ListOptions{LabelSelector: "app.kubernetes.io/instance=" + release})
	if err != nil || len(list.Items) != 1 {
		t.Fatalf("the release's Services in %s: %v (%v), want one", ns, list, err)
	}
	if svcNS != ns || svcName != list.Items[0].GetName() {
		t.Errorf("the CRD converts through Service %s/%s, want the release's %s/%s", svcNS, svcName, ns, list.Items[0].GetName())
	}
	if ca != caBundle {
		t.Errorf("the CRD's caBundle = %q, want the one given", ca)
	}
}

// getCRD reads the CRD named name from the cluster, failing the test when
// it is not there.
func getCRD(t *testing.T, name string) *unstructured.Unstructured {
	t.Helper()
	crd, err := cluster.Dynamic.Resource(CRDResource).Get(context.Background(), name, metav1.GetOptions{})
	if err != nil {
		t.Fatalf("CRD %s: %v", name, err)
	}
	return crd
}

// chartIn is the one chart crdforge generate --helm wrote under dir/charts
// (named after the project, the scratch directory's name).
func chartIn(t *testing.T, dir string) string {
	t.Helper()
	m, _ := filepath.Glob(filepath.Join(dir, "charts", "*", "Chart.yaml"))
	if len(m) != 1 {
		t.Fatalf("charts under %s: %v, want one", dir, m)
	}
	return filepath.Dir(m[0])
}

// TestHelmChartsOfTheExamples lints and templates, cert-manager on and
// off, the chart each example commits (make verify keeps them generated):
// what TestHelmChart installs is one project's; these are three API
// shapes, a CRD of 670 KiB among them.
func TestHelmChartsOfTheExamples(t *testing.T) {
	t.Parallel()
	serverIndependent(t)
	needCluster(t)
	h := newHelm(t)
	for _, ex := range []string{"cronjob", "crontab", "widgets"} {
		t.Run(ex, func(t *testing.T) {
			h := &helmCLI{t: t, bin: h.bin, env: h.env}
			chart := chartIn(t, filepath.Join(repoRoot, "examples", ex))
			templateWithAndWithoutCertManager(t, h, chart, "helm-"+ex, ex, base64.StdEncoding.EncodeToString([]byte("ca of "+ex)))
		})
	}
}
