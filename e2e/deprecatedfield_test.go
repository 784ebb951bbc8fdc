package e2e

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
)

// The deprecatedfield golden case's output, as crdforge generates it.
var (
	deprecatedFieldDir    = filepath.Join("testdata", "deprecatedfield", "want", "config", "crd", "bases")
	deprecatedFieldCRD    = "gadgets.example.com_gadgets.yaml"
	deprecatedFieldPolicy = "gadgets.example.com_gadgets.deprecation.yaml"
)

// gadgetsWarning is the warning the API server sends for the deprecated
// field at path set at version: the ValidatingAdmissionPolicy's Warn
// action's wording around the generated message.
func gadgetsWarning(version, path, text string) string {
	const policy = "gadgets.gadgets.example.com-deprecated-fields"
	return "Validation failed for ValidatingAdmissionPolicy '" + policy + "' with binding '" + policy + "': " +
		"gadgets.example.com/" + version + " Gadget " + path + " is deprecated: " + text
}

const colorText = "use spec.paint; spec.color goes in v2"

// TestDeprecatedFieldWarns installs the deprecatedfield case's generated
// CRD and, with the built kubectl, its generated policy and binding, then
// checks that the real API server warns the client that sets a deprecated
// field, in each version that deprecates it and below an optional parent,
// and no one else.
func TestDeprecatedFieldWarns(t *testing.T) {
	t.Parallel()
	needCluster(t)
	ctx := context.Background()
	dir := filepath.Join(repoRoot, deprecatedFieldDir)
	crd, err := LoadCRD(filepath.Join(dir, deprecatedFieldCRD))
	if err != nil {
		t.Fatal(err)
	}
	// The case converts through its webhook, which is not what this test
	// runs: admission sees each request at its own version, before any
	// conversion, so the API server's None conversion does here.
	if err := unstructured.SetNestedMap(crd.Object, map[string]any{"strategy": "None"}, "spec", "conversion"); err != nil {
		t.Fatal(err)
	}
	if err := cluster.ApplyCRD(ctx, crd); err != nil {
		t.Fatal(err)
	}
	if err := cluster.WaitEstablished(ctx, crd.GetName()); err != nil {
		t.Fatal(err)
	}
	policyFile := filepath.Join(dir, deprecatedFieldPolicy)
	if _, stderr, err := cluster.Kubectl(ctx, nil, "apply", "-f", policyFile); err != nil {
		t.Fatalf("the generated policy and binding are refused: %v", err)
	} else if strings.TrimSpace(stderr) != "" {
		t.Errorf("applying the generated policy and binding warned: %s", stderr)
	}
	t.Cleanup(func() {
		_, _, _ = cluster.Kubectl(context.Background(), nil, "delete", "-f", policyFile, "--ignore-not-found")
		_ = cluster.Dynamic.Resource(CRDResource).Delete(context.Background(), crd.GetName(), metav1.DeleteOptions{})
	})

	rec := &Warnings{}
	dc, err := cluster.DynamicWithWarnings(rec)
	if err != nil {
		t.Fatal(err)
	}
	gadgets := func(version string) dynamic.ResourceInterface {
		return dc.Resource(schema.GroupVersionResource{Group: "gadgets.example.com", Version: version, Resource: "gadgets"}).Namespace("default")
	}
	waitPolicyActive(t, gadgets("v1"), rec)
	testGadgetWarnings(t, gadgets, rec)

	// kubectl prints the warning on stderr, as it prints every warning.
	manifest := "apiVersion: gadgets.example.com/v1\nkind: Gadget\nmetadata: {name: by-kubectl, namespace: default}\nspec: {color: red}\n"
	_, stderr, err := cluster.Kubectl(ctx, []byte(manifest), "create", "-f", "-")
	if err != nil {
		t.Fatal(err)
	}
	want := "Warning: " + gadgetsWarning("v1", "spec.color", colorText)
	if !strings.Contains(stderr, want+"\n") {
		t.Errorf("kubectl create printed\n%s\nwant the line\n%s", stderr, want)
	}
	t.Logf("kubectl: %s", strings.TrimSpace(stderr))
}

// gadget is a Gadget at version named name with spec.
func gadget(version, name string, spec map[string]any) *unstructured.Unstructured {
	u := &unstructured.Unstructured{Object: map[string]any{"spec": spec}}
	u.SetAPIVersion("gadgets.example.com/" + version)
	u.SetKind("Gadget")
	u.SetNamespace("default")
	u.SetName(name)
	return u
}

// waitPolicyActive creates, dry run, a Gadget that sets spec.color until
// the warning comes: the API server takes a new policy and binding into
// account a little after it stores them.
func waitPolicyActive(t *testing.T, v1 dynamic.ResourceInterface, rec *Warnings) {
	t.Helper()
	ctx := context.Background()
	want := gadgetsWarning("v1", "spec.color", colorText)
	var last []string
	err := Poll(ctx, time.Minute, func() (bool, error) {
		_, err := v1.Create(ctx, gadget("v1", "probe", map[string]any{"color": "red"}), metav1.CreateOptions{DryRun: []string{metav1.DryRunAll}})
		last = rec.Take()
		return err == nil && slices.Contains(last, want), err
	})
	if err != nil {
		t.Fatalf("the policy never warned (last warnings %q): %v", last, err)
	}
}

// testGadgetWarnings checks who gets warned: a create that sets a
// deprecated field, in each version, and an update that changes it; not a
// create without it, nor an update that leaves it as it was.
func testGadgetWarnings(t *testing.T, gadgets func(string) dynamic.ResourceInterface, rec *Warnings) {
	ctx := context.Background()
	gloss := gadgetsWarning("v1", "spec.paint.gloss", "gloss is always 100 now")
	for _, tt := range []struct {
		name, version string
		spec          map[string]any
		want          []string
	}{
		{"color-v1", "v1", map[string]any{"color": "red"}, []string{gadgetsWarning("v1", "spec.color", colorText)}},
		{"color-v1beta1", "v1beta1", map[string]any{"color": "red"}, []string{gadgetsWarning("v1beta1", "spec.color", colorText)}},
		{"gloss", "v1", map[string]any{"paint": map[string]any{"color": "red", "gloss": int64(80)}}, []string{gloss}},
		{"paint-without-gloss", "v1", map[string]any{"paint": map[string]any{"color": "red"}}, nil},
		{"plain", "v1", map[string]any{"size": int64(3)}, nil},
		{"plain-v1beta1", "v1beta1", map[string]any{"size": int64(3)}, nil},
	} {
		if _, err := gadgets(tt.version).Create(ctx, gadget(tt.version, tt.name, tt.spec), metav1.CreateOptions{}); err != nil {
			t.Fatalf("creating %s: %v", tt.name, err)
		}
		if got := rec.Take(); !slices.Equal(got, tt.want) {
			t.Errorf("creating %s at %s with spec %v warned %q, want %q", tt.name, tt.version, tt.spec, got, tt.want)
		}
	}
	update := func(name string, edit func(spec map[string]any)) []string {
		t.Helper()
		v1 := gadgets("v1")
		cur, err := v1.Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		spec, _ := cur.Object["spec"].(map[string]any)
		edit(spec)
		rec.Take()
		if _, err := v1.Update(ctx, cur, metav1.UpdateOptions{}); err != nil {
			t.Fatal(err)
		}
		return rec.Take()
	}
	if got := update("color-v1", func(spec map[string]any) { spec["size"] = int64(5) }); len(got) != 0 {
		t.Errorf("an update that leaves spec.color as it was warned %q", got)
	}
	if got, want := update("color-v1", func(spec map[string]any) { spec["color"] = "blue" }), gadgetsWarning("v1", "spec.color", colorText); !slices.Equal(got, []string{want}) {
		t.Errorf("an update that changes spec.color warned %q, want %q", got, want)
	}
	if got := update("plain", func(spec map[string]any) { spec["color"] = "green" }); !slices.Equal(got, []string{gadgetsWarning("v1", "spec.color", colorText)}) {
		t.Errorf("an update that sets spec.color warned %q", got)
	}
}
