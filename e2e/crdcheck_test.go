package e2e

import (
	"bytes"
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/crdforge/crdforge/cmd/crdforge/cli"
	crdcheck "github.com/crdforge/crdforge/cmd/crdforge/command/check"
	"github.com/crdforge/crdforge/generators/pipeline"
)

// TestCheckAgainstCluster: crdforge check --against-cluster reads
// status.storedVersions from the real API server. The installed Gauge CRD
// (testdata/check/old: v1beta1 storage, v1 served) stores an object at
// v1beta1, then moves its storage to v1; the working tree
// (testdata/check/new) has v1 only. Check reports v1beta1 as a stored
// version removed, pointing at crdforge migrate; after crdforge migrate it
// no longer does (v1beta1 is still a served version removed).
func TestCheckAgainstCluster(t *testing.T) {
	needCluster(t)
	ctx := context.Background()
	oldDir, err := filepath.Abs(filepath.Join("testdata", "check", "old"))
	if err != nil {
		t.Fatal(err)
	}
	newDir := filepath.Join(filepath.Dir(oldDir), "new")

	side, err := crdcheck.Generate(pipeline.Config{Dir: oldDir})
	if err != nil || side.Diags.HasErrors() || len(side.CRDs) != 1 {
		t.Fatalf("generating the installed CRD: %v %v", err, side.Diags.Items())
	}
	obj, err := runtime.DefaultUnstructuredConverter.ToUnstructured(side.CRDs[0])
	if err != nil {
		t.Fatal(err)
	}
	crd := &unstructured.Unstructured{Object: obj}
	crd.SetAPIVersion("apiextensions.k8s.io/v1")
	crd.SetKind("CustomResourceDefinition")
	name := crd.GetName()
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
	gvr := schema.GroupVersionResource{Group: "check.crdforge.test", Version: "v1beta1", Resource: "gauges"}
	gauge := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "check.crdforge.test/v1beta1", "kind": "Gauge",
		"metadata": map[string]any{"name": "full", "namespace": "default"},
		"spec":     map[string]any{"level": int64(9)},
	}}
	if err := PollFor(ctx, time1m, func() error {
		_, err := cluster.Dynamic.Resource(gvr).Namespace("default").Create(ctx, gauge, metav1.CreateOptions{})
		return err
	}); err != nil {
		t.Fatal(err)
	}
	// One update moves the storage version: the server refuses a CRD with
	// none, or two, in between.
	if _, err := cluster.UpdateCRD(ctx, name, func(u *unstructured.Unstructured) error {
		if err := SetVersionFields(u, "v1", map[string]any{"storage": true}); err != nil {
			return err
		}
		return SetVersionFields(u, "v1beta1", map[string]any{"storage": false})
	}); err != nil {
		t.Fatal(err)
	}

	runCheck := func() (string, int) {
		t.Helper()
		t.Chdir(newDir)
		var out, errb bytes.Buffer
		code := cli.Main([]string{"check", "--against-cluster", "--kubeconfig", cluster.Kubeconfig, "./..."}, &out, &errb)
		if code == cli.ExitErrors {
			t.Fatalf("check: exit 2\n%s%s", out.String(), errb.String())
		}
		return out.String(), code
	}
	report, code := runCheck()
	if code != cli.ExitBreaking || !strings.Contains(report, "error: storedVersionRemoval: "+name+": stored versions removed : [v1beta1]") ||
		!strings.Contains(report, "run crdforge migrate "+name) {
		t.Fatalf("before migrate: exit %d, report\n%s", code, report)
	}

	// --engine client: the cluster runs no migrator, which the default
	// (auto) would wait 30 s for before it migrates from the client
	// (TestMigrateAutoFallsBack covers that).
	var out, errb bytes.Buffer
	if code := cli.RunMigrate(ctx, []string{name, "--kubeconfig", cluster.Kubeconfig, "--engine", "client", "--quiet"}, &out, &errb, nil); code != cli.ExitOK {
		t.Fatalf("migrate: exit %d\n%s%s", code, out.String(), errb.String())
	}
	cur, err := cluster.Dynamic.Resource(CRDResource).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	stored, _, _ := unstructured.NestedStringSlice(cur.Object, "status", "storedVersions")
	if !slices.Equal(stored, []string{"v1"}) {
		t.Fatalf("after migrate, storedVersions %v", stored)
	}

	report, code = runCheck()
	if strings.Contains(report, "storedVersionRemoval") {
		t.Errorf("after migrate, check still reports the stored version:\n%s", report)
	}
	// Removing a served version still breaks its clients.
	if code != cli.ExitBreaking || !strings.Contains(report, "servedVersionRemoved: "+name+" v1beta1") {
		t.Errorf("after migrate: exit %d, report\n%s", code, report)
	}
}
