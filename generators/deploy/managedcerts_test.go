package deploy_test

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The managed-certs component is written only for a main generated with
// webhook-manage-certs, and is opt-in: added to config/webhook, it runs the
// webhook with --manage-certs and the generator-known names, serves from a
// writable emptyDir, renders the empty Secret and Lease, grants get and
// update on exactly those and on the served CRDs (never create), and drops
// cert-manager's objects and the CRDs' inject-ca-from annotation.
func TestManagedCertsComponent(t *testing.T) {
	m, crds := load(t, "../../examples/crontab")
	for _, f := range generate(t, byDefault, m) {
		if strings.Contains(f.Path, "managed-certs") {
			t.Errorf("written without ManageCerts: %s", f.Path)
		}
	}
	g := byDefault
	g.ManageCerts = true
	root := t.TempDir()
	writeTree(t, root, crds, generate(t, g, m))
	for _, o := range kustomize(t, filepath.Join(root, "config/webhook")) {
		if k := o.str("kind"); k == "Lease" || k == "Role" {
			t.Errorf("config/webhook renders %s: the component is opt-in", o.id())
		}
	}
	mine := filepath.Join(root, "config", "mine")
	if err := os.MkdirAll(mine, 0o755); err != nil {
		t.Fatal(err)
	}
	overlay := "resources:\n- ../webhook\ncomponents:\n- ../webhook/managed-certs\n"
	if err := os.WriteFile(filepath.Join(mine, "kustomization.yaml"), []byte(overlay), 0o644); err != nil {
		t.Fatal(err)
	}
	objs := kustomize(t, mine)
	d := one(t, objs, "Deployment")
	ns := d.str("metadata", "namespace")
	pod := obj(d.get("spec", "template", "spec").(map[string]any))
	c := obj(pod.get("containers", 0).(map[string]any))
	args := fmt.Sprint(c.get("args"))
	for _, want := range []string{"--manage-certs", "--certs-secret=crontab-webhook-certs", "--certs-service=crontab-webhook-service",
		"--certs-crds=crontabs.example.com", "--cert-dir=/tmp/k8s-webhook-server/serving-certs"} {
		if !strings.Contains(args, want) {
			t.Errorf("the webhook's args %s lack %s", args, want)
		}
	}
	if pod.get("automountServiceAccountToken") != true || pod.str("serviceAccountName") != "crontab-webhook" {
		t.Errorf("the pod does not run as crontab-webhook with its token: %v, %v", pod.get("serviceAccountName"), pod.get("automountServiceAccountToken"))
	}
	vol := obj(pod.get("volumes", 0).(map[string]any))
	if vol.get("emptyDir") == nil || vol.get("secret") != nil {
		t.Errorf("the serving-cert volume is not an emptyDir alone: %v", vol)
	}
	if mount := obj(c.get("volumeMounts", 0).(map[string]any)); mount.get("readOnly") == true {
		t.Errorf("the certificate directory is mounted read-only: %v", mount)
	}
	for _, kind := range []string{"Secret", "Lease"} {
		o := one(t, objs, kind)
		if o.str("metadata", "name") != "crontab-webhook-certs" || o.str("metadata", "namespace") != ns {
			t.Errorf("%s is %s, want %s/crontab-webhook-certs", kind, o.id(), ns)
		}
		if o.get("data") != nil || o.get("spec") != nil {
			t.Errorf("%s is not empty: %v", kind, o)
		}
	}
	rules := func(kind string) string {
		o := one(t, objs, kind)
		var out []string
		for _, r := range o.get("rules").([]any) {
			r := obj(r.(map[string]any))
			out = append(out, fmt.Sprint(r.get("resources"), r.get("resourceNames"), r.get("verbs")))
		}
		return strings.Join(out, "; ")
	}
	if got, want := rules("Role"), "[secrets] [crontab-webhook-certs] [get update]; [leases] [crontab-webhook-certs] [get update]"; got != want {
		t.Errorf("the Role grants %s, want %s", got, want)
	}
	if got, want := rules("ClusterRole"), "[customresourcedefinitions] [crontabs.example.com] [get update patch]"; got != want {
		t.Errorf("the ClusterRole grants %s, want %s", got, want)
	}
	for _, kind := range []string{"RoleBinding", "ClusterRoleBinding"} {
		b := one(t, objs, kind)
		s := obj(b.get("subjects", 0).(map[string]any))
		if s.str("name") != "crontab-webhook" || s.str("namespace") != ns || b.str("roleRef", "name") != "crontab-webhook-certs" {
			t.Errorf("%s binds %v to %v", kind, s, b.get("roleRef"))
		}
	}
	for _, o := range objs {
		if strings.HasPrefix(o.str("apiVersion"), "cert-manager.io/") {
			t.Errorf("the component leaves cert-manager's %s", o.id())
		}
		if o.str("kind") == "CustomResourceDefinition" {
			if a, _ := o.get("metadata", "annotations").(map[string]any); a != nil && a["cert-manager.io/inject-ca-from"] != nil {
				t.Errorf("CRD %s keeps cert-manager's inject-ca-from", o.str("metadata", "name"))
			}
		}
	}
	if kinds := kindsOf(objs); !slices.Contains(kinds, "ServiceAccount") {
		t.Errorf("no ServiceAccount in %v", kinds)
	}
}

func kindsOf(objs []obj) []string {
	var out []string
	for _, o := range objs {
		out = append(out, o.str("kind"))
	}
	return out
}
