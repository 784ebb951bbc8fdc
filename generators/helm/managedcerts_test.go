package helm_test

import (
	"os"
	"slices"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"

	"github.com/crdforge/crdforge/generators/pipeline"
	"github.com/crdforge/crdforge/internal/manifestcheck"
	"github.com/crdforge/crdforge/internal/output"
)

// managedCertsChart is the crontab example's chart, generated as with
// webhook-manage-certs.
func managedCertsChart(t *testing.T) string {
	t.Helper()
	return writeChart(t, pipeline.Config{Dir: "../../examples/crontab", Only: []string{"helm"}, WebhookManageCerts: true})
}

// rendered decodes helm template's output strictly, by kind and name.
func rendered(t *testing.T, out string) map[string]any {
	t.Helper()
	objs, err := manifestcheck.Decode([]byte(out))
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]any{}
	for _, o := range objs {
		if o.Typed == nil {
			byName[o.Kind] = nil
			continue
		}
		name := o.Typed.(interface{ GetName() string }).GetName()
		byName[o.Kind+"/"+name] = o.Typed
	}
	return byName
}

// With managedCerts.enabled, helm template (no cluster) renders the webhook
// keeping its own certificates: --manage-certs and its flags naming the
// Secret (names.certsSecret), the Service and the CRD; the serving pair in
// an emptyDir the webhook writes; a service account of its own with its
// token mounted; the RBAC of the kustomize component, by name; the empty
// Secret and Lease; and no caBundle, no cert-manager object or annotation.
func TestChartManagedCerts(t *testing.T) {
	bin := helmBin(t)
	chart := managedCertsChart(t)
	out, err := helmTemplate(t, bin, chart, "--set", "managedCerts.enabled=true", "--set", "certManager.enabled=false",
		"--set", "names.certsSecret=hook-certs")
	if err != nil {
		t.Fatalf("helm template: %v\n%s", err, out)
	}
	if strings.Contains(out, "caBundle:") || strings.Contains(out, "cert-manager.io") {
		t.Errorf("a caBundle or cert-manager in the render; the webhook writes the caBundle:\n%s", out)
	}
	objs := rendered(t, out)
	d, _ := objs["Deployment/crontab-webhook"].(*appsv1.Deployment)
	if d == nil {
		t.Fatalf("no Deployment crontab-webhook among %v", keys(objs))
	}
	pod := d.Spec.Template.Spec
	args := pod.Containers[0].Args
	for _, want := range []string{"--manage-certs", "--certs-secret=hook-certs", "--certs-service=crontab-webhook-service", "--certs-crds=crontabs.example.com"} {
		if !slices.Contains(args, want) {
			t.Errorf("the webhook's args %v lack %s", args, want)
		}
	}
	if pod.ServiceAccountName != "crontab-webhook" || pod.AutomountServiceAccountToken == nil || !*pod.AutomountServiceAccountToken {
		t.Errorf("the pod runs as %q with token %v, want crontab-webhook's, mounted", pod.ServiceAccountName, pod.AutomountServiceAccountToken)
	}
	if v := pod.Volumes[0]; v.EmptyDir == nil || v.Secret != nil || pod.Containers[0].VolumeMounts[0].ReadOnly {
		t.Errorf("the serving pair's volume %+v (mount %+v), want a writable emptyDir", v, pod.Containers[0].VolumeMounts[0])
	}
	if _, ok := objs["ServiceAccount/crontab-webhook"].(*corev1.ServiceAccount); !ok {
		t.Errorf("no ServiceAccount crontab-webhook among %v", keys(objs))
	}
	for _, k := range []string{"Secret/hook-certs", "Lease/hook-certs"} {
		if _, ok := objs[k]; !ok {
			t.Errorf("no %s among %v", k, keys(objs))
		}
	}
	role, _ := objs["Role/crontab-webhook-certs"].(*rbacv1.Role)
	cluster, _ := objs["ClusterRole/crontab-system-crontab-webhook-certs"].(*rbacv1.ClusterRole)
	if role == nil || cluster == nil {
		t.Fatalf("no Role and ClusterRole among %v", keys(objs))
	}
	for _, r := range role.Rules {
		if !slices.Equal(r.ResourceNames, []string{"hook-certs"}) || slices.Contains(r.Verbs, "create") {
			t.Errorf("the Role grants %+v, want get and update of hook-certs alone", r)
		}
	}
	if r := cluster.Rules; len(r) != 1 || !slices.Equal(r[0].ResourceNames, []string{"crontabs.example.com"}) {
		t.Errorf("the ClusterRole grants %+v, want the CRD crontabs.example.com by name", r)
	}
	for _, k := range []string{"RoleBinding/crontab-webhook-certs", "ClusterRoleBinding/crontab-system-crontab-webhook-certs"} {
		var subjects []rbacv1.Subject
		switch b := objs[k].(type) {
		case *rbacv1.RoleBinding:
			subjects = b.Subjects
		case *rbacv1.ClusterRoleBinding:
			subjects = b.Subjects
		}
		if len(subjects) != 1 || subjects[0].Name != "crontab-webhook" || subjects[0].Namespace != "crontab-system" {
			t.Errorf("%s binds %+v, want the ServiceAccount crontab-system/crontab-webhook", k, subjects)
		}
	}
}

// managedCerts and cert-manager both on is refused: both would write the
// caBundle. Off, the chart renders what a chart generated without
// webhook-manage-certs renders, byte for byte.
func TestChartManagedCertsOffOrConflicting(t *testing.T) {
	bin := helmBin(t)
	chart := managedCertsChart(t)
	out, err := helmTemplate(t, bin, chart, "--set", "managedCerts.enabled=true", "--set", "certManager.enabled=true")
	if err == nil || !strings.Contains(out, "managedCerts.enabled and certManager.enabled are both true") {
		t.Errorf("helm template with both on: %v, want the conflict named:\n%s", err, out)
	}
	plain := crontabChart(t)
	for _, args := range [][]string{nil, {"--set", "certManager.enabled=false", "--set", "caBundle=Q0E="}} {
		off, err := helmTemplate(t, bin, chart, append([]string{"--set", "managedCerts.enabled=false"}, args...)...)
		want, err2 := helmTemplate(t, bin, plain, args...)
		if err != nil || err2 != nil {
			t.Fatalf("helm template: %v, %v\n%s\n%s", err, err2, off, want)
		}
		// managedcerts.yaml's header comment is left, alone in its document.
		off = strings.Replace(off, "---\n# Source: crontab/templates/managedcerts.yaml\n"+output.YAMLHeader+"\n\n", "", 1)
		if off != want {
			t.Errorf("%v: managedCerts.enabled=false renders other than the chart without the value:\n%s", args, lineDiff(want, off))
		}
	}
}

// The chart's values.yaml turns managedCerts on where cert-manager is off,
// and writes no managedCerts at all for a main without --manage-certs.
func TestChartManagedCertsDefault(t *testing.T) {
	values, err := os.ReadFile(managedCertsChart(t) + "/values.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(values), "\nmanagedCerts:\n") || !strings.Contains(string(values), "\ncertManager:\n") {
		t.Errorf("values.yaml lacks managedCerts or certManager:\n%s", values)
	}
	plain, err := os.ReadFile(crontabChart(t) + "/values.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(plain), "managedCerts") || strings.Contains(string(plain), "certsSecret") {
		t.Errorf("a chart generated without webhook-manage-certs types managedCerts:\n%s", plain)
	}
}

func keys(m map[string]any) []string {
	var k []string
	for n := range m {
		k = append(k, n)
	}
	slices.Sort(k)
	return k
}

// lineDiff lists the lines of got that want lacks, and the other way round.
func lineDiff(want, got string) string {
	var out []string
	wl, gl := strings.Split(want, "\n"), strings.Split(got, "\n")
	for _, l := range gl {
		if !slices.Contains(wl, l) {
			out = append(out, "+ "+l)
		}
	}
	for _, l := range wl {
		if !slices.Contains(gl, l) {
			out = append(out, "- "+l)
		}
	}
	return strings.Join(out, "\n")
}
