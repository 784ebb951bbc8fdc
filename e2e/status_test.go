package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"os/exec"
	"slices"
	"strings"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// statusReport is `crdforge status -o json`'s output, as a script reads it.
type statusReport struct {
	CRD      string
	Versions []struct {
		Name                                string
		Served, Storage, Deprecated, Stored bool
		DeprecationWarning                  string
	}
	StoredVersions []string
	Conversion     string
	Webhook        *struct {
		Answers bool
		Detail  string
	}
	Step struct{ Name, Summary, Next string }
}

// crdforgeStatus runs the built `crdforge status name -o json` and decodes
// its report; it fails the test on a non-zero exit.
func crdforgeStatus(t *testing.T, name string) *statusReport {
	t.Helper()
	out, stderr, code := runCrdforge(t, "status", name, "--kubeconfig", cluster.Kubeconfig, "-o", "json")
	if code != 0 {
		t.Fatalf("crdforge status %s: exit %d\n%s", name, code, stderr)
	}
	var r statusReport
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("crdforge status -o json: %v\n%s", err, out)
	}
	return &r
}

// runCrdforge runs the built crdforge binary with args.
func runCrdforge(t testing.TB, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := exec.Command(crdforge, args...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		return out.String(), errb.String(), ee.ExitCode()
	}
	if err != nil {
		t.Fatalf("crdforge %s: %v", strings.Join(args, " "), err)
	}
	return out.String(), errb.String(), 0
}

// TestStatusFollowsTheLifeOfAVersion walks a CRD without conversion (its own
// group, so no other test sees it) through the steps of a version's life
// on the real API server, and checks what crdforge status says at each: the
// versions' flags as the server holds them, the warning a deprecated
// version's clients really get, and the step and next command.
func TestStatusFollowsTheLifeOfAVersion(t *testing.T) {
	t.Parallel()
	needCluster(t)
	ctx := context.Background()
	name := "gadgets.status.e2e.crdforge.io"
	openAPI := map[string]any{"openAPIV3Schema": map[string]any{"type": "object", "x-kubernetes-preserve-unknown-fields": true}}
	version := func(name string, served, storage bool) any {
		return map[string]any{"name": name, "served": served, "storage": storage, "schema": openAPI}
	}
	crd := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
		"metadata": map[string]any{"name": name},
		"spec": map[string]any{
			"group": "status.e2e.crdforge.io", "scope": "Namespaced",
			"names":    map[string]any{"plural": "gadgets", "singular": "gadget", "kind": "Gadget", "listKind": "GadgetList"},
			"versions": []any{version("v1", true, true)},
		},
	}}
	if err := cluster.ApplyCRD(ctx, crd); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := cluster.Dynamic.Resource(CRDResource).Delete(ctx, name, metav1.DeleteOptions{}); err != nil {
			t.Errorf("deleting %s: %v", name, err)
		}
	})
	if err := cluster.WaitEstablished(ctx, name); err != nil {
		t.Fatal(err)
	}
	update := func(mutate func(*unstructured.Unstructured) error) {
		t.Helper()
		if _, err := cluster.UpdateCRD(ctx, name, mutate); err != nil {
			t.Fatal(err)
		}
	}
	expect := func(step, next string) *statusReport {
		t.Helper()
		r := crdforgeStatus(t, name)
		if r.Step.Name != step || !strings.Contains(r.Step.Next, next) {
			t.Fatalf("step %+v, want %s with next containing %q", r.Step, step, next)
		}
		if r.Conversion != "None" || r.Webhook != nil {
			t.Errorf("conversion %s, webhook %+v; want None and no check", r.Conversion, r.Webhook)
		}
		return r
	}

	expect("settled", "crdforge new-version")

	update(func(u *unstructured.Unstructured) error {
		return unstructured.SetNestedSlice(u.Object, []any{version("v1", true, true), version("v2", true, false)}, "spec", "versions")
	})
	expect("make-storage", "make v2 the storage version")

	update(func(u *unstructured.Unstructured) error {
		return SetVersionFields(u, "v2", map[string]any{"storage": true})
	})
	r := expect("migrate", "crdforge migrate "+name)
	if !slices.Equal(r.StoredVersions, []string{"v1", "v2"}) {
		t.Errorf("storedVersions %v, want [v1 v2]", r.StoredVersions)
	}
	for _, v := range r.Versions {
		if !v.Served || !v.Stored || v.Storage != (v.Name == "v2") || v.Deprecated {
			t.Errorf("version %+v: want served, stored, storage only for v2, not deprecated", v)
		}
	}

	// The API server leaves storedVersions to whoever migrated; here
	// nothing is stored, so the test drops v1 as migrate would.
	crds := cluster.Dynamic.Resource(CRDResource)
	cur, err := crds.Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := unstructured.SetNestedStringSlice(cur.Object, []string{"v2"}, "status", "storedVersions"); err != nil {
		t.Fatal(err)
	}
	if _, err := crds.UpdateStatus(ctx, cur, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	expect("stop-serving", "deprecate v1")

	update(func(u *unstructured.Unstructured) error {
		return SetVersionFields(u, "v1", map[string]any{"deprecated": true})
	})
	r = expect("stop-serving", "stop serving v1")
	// The warning status reports is the one clients get.
	rec := &Warnings{}
	dyn, err := cluster.DynamicWithWarnings(rec)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := dyn.Resource(schemaGVR("status.e2e.crdforge.io", "v1", "gadgets")).Namespace("default").List(ctx, metav1.ListOptions{}); err != nil {
		t.Fatal(err)
	}
	got := rec.Take()
	if len(got) != 1 || r.Versions[0].Name != "v1" || r.Versions[0].DeprecationWarning != got[0] {
		t.Errorf("status says v1 warns %q; the API server sent %q", r.Versions[0].DeprecationWarning, got)
	}

	update(func(u *unstructured.Unstructured) error {
		return SetVersionFields(u, "v1", map[string]any{"served": false})
	})
	expect("remove", "delete v1's package")

	update(func(u *unstructured.Unstructured) error { return dropVersion(u, "v1") })
	expect("settled", "crdforge new-version")

	// Text output says the same, for people.
	out, _, code := runCrdforge(t, "status", name, "--kubeconfig", cluster.Kubeconfig)
	if code != 0 || !strings.Contains(out, "step: settled") || !strings.Contains(out, "v2       yes     yes      yes     no") {
		t.Errorf("crdforge status (text): exit %d\n%s", code, out)
	}
	if _, stderr, code := runCrdforge(t, "status", "nopes.status.e2e.crdforge.io", "--kubeconfig", cluster.Kubeconfig); code != 2 || !strings.Contains(stderr, "no such CustomResourceDefinition") {
		t.Errorf("status of an unknown CRD: exit %d, stderr %q; want 2 and a clear message", code, stderr)
	}
}

// TestStatusWebhook: on examples/crontab, status reports whether the
// conversion webhook answers, and says to start it when it does not.
func TestStatusWebhook(t *testing.T) {
	e := setUpExample(t, "crontab", map[string]any{"host": "probe", "port": "1"})
	ctx := context.Background()
	ns := "status-webhook"
	createNamespace(t, ns)
	obj := e.Obj("v1", ns, "probe", map[string]any{"host": "h", "port": "1"})
	ri := cluster.Dynamic.Resource(e.Resource("v1")).Namespace(ns)
	if _, err := ri.Create(ctx, obj, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := ri.Delete(ctx, "probe", metav1.DeleteOptions{}); err != nil {
			t.Errorf("deleting the probe: %v", err)
		}
	})
	r := crdforgeStatus(t, e.CRD.GetName())
	if r.Conversion != "Webhook" || r.Webhook == nil || !r.Webhook.Answers {
		t.Fatalf("conversion %s, webhook %+v; want Webhook, answering", r.Conversion, r.Webhook)
	}
	if err := e.Stop(); err != nil {
		t.Fatal(err)
	}
	r = crdforgeStatus(t, e.CRD.GetName())
	if r.Webhook == nil || r.Webhook.Answers || r.Step.Name != "webhook-down" || !strings.Contains(r.Step.Next, "start the conversion webhook") {
		t.Errorf("with the webhook stopped: webhook %+v, step %+v; want it not answering and step %s", r.Webhook, r.Step, "webhook-down")
	}
}

func schemaGVR(group, version, resource string) schema.GroupVersionResource {
	return schema.GroupVersionResource{Group: group, Version: version, Resource: resource}
}

// createNamespace creates namespace ns, if it does not exist yet.
func createNamespace(t *testing.T, ns string) {
	t.Helper()
	obj := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "v1", "kind": "Namespace", "metadata": map[string]any{"name": ns}}}
	_, err := cluster.Dynamic.Resource(schema.GroupVersionResource{Version: "v1", Resource: "namespaces"}).Create(context.Background(), obj, metav1.CreateOptions{})
	if err != nil && !apierrors.IsAlreadyExists(err) {
		t.Fatal(err)
	}
}
