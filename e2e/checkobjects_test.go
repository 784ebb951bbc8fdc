package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/tools/clientcmd"

	"github.com/crdforge/crdforge/cmd/crdforge/cli"
	crdcheck "github.com/crdforge/crdforge/cmd/crdforge/command/check"
	"github.com/crdforge/crdforge/generators/pipeline"
)

// TestCheckObjectsAgainstCluster: crdforge check --against-cluster
// --objects names, of the objects a real API server stores, exactly those
// the working tree's narrowed schema refuses. The Meter CRD is installed
// with a level of at most 30 and four objects stored (levels 5, 8, 15,
// 25); then it is narrowed to the installed CRD of testdata/checkobjects/old
// (at most 20), which the server's ratcheting lets the level-25 object
// outlive. The working tree (testdata/checkobjects/new) allows at most 10:
// the level-15 object is refused, the level-25 one was already refused by
// the cluster's schema and is not named, and the others are valid.
func TestCheckObjectsAgainstCluster(t *testing.T) {
	needCluster(t)
	ctx := context.Background()
	oldDir, err := filepath.Abs(filepath.Join("testdata", "checkobjects", "old"))
	if err != nil {
		t.Fatal(err)
	}
	newDir := filepath.Join(filepath.Dir(oldDir), "new")
	crd := installedMeters(ctx, t, oldDir)
	name := crd.GetName()

	// Through the library, a page of one object: the pages are followed.
	rc, err := clientcmd.BuildConfigFromFlags("", cluster.Kubeconfig)
	if err != nil {
		t.Fatal(err)
	}
	nw, err := crdcheck.Generate(pipeline.Config{Dir: newDir})
	if err != nil || nw.Diags.HasErrors() {
		t.Fatalf("generating the new CRD: %v %v", err, nw.Diags.Items())
	}
	installed, err := crdcheck.Cluster(ctx, rc, []string{name})
	if err != nil {
		t.Fatal(err)
	}
	objs, err := crdcheck.StoredObjects(ctx, rc, installed.CRDs, nw.CRDs, 1)
	if err != nil {
		t.Fatal(err)
	}
	if objs.Checked != 4 || len(objs.Refused) != 1 || objs.Refused[0].Object() != "default/high" || objs.Refused[0].Field != "spec.level" {
		t.Errorf("pages of one: checked %d, refused %+v; want 4 and default/high at spec.level", objs.Checked, objs.Refused)
	}

	// Through the command line, as text and as JSON.
	t.Chdir(newDir)
	var out, errb bytes.Buffer
	code := cli.Main([]string{"check", "--against-cluster", "--objects", "--kubeconfig", cluster.Kubeconfig, "./..."}, &out, &errb)
	want := "  default/high: spec.level: Invalid value: 15: spec.level in body should be less than or equal to 10\n"
	others := strings.Contains(out.String(), "default/low") || strings.Contains(out.String(), "default/mid") || strings.Contains(out.String(), "default/ancient")
	if code != cli.ExitBreaking || !strings.Contains(out.String(), want) || others || !strings.Contains(out.String(), "1 of 4 stored object(s) refused") {
		t.Errorf("text: exit %d, stdout\n%s\nstderr\n%s\nwant 1 and the one line %q", code, out.String(), errb.String(), want)
	}
	out.Reset()
	code = cli.Main([]string{"check", "--against-cluster", "--objects", "--kubeconfig", cluster.Kubeconfig, "-o", "json", "./..."}, &out, &errb)
	var doc struct {
		Objects crdcheck.Objects `json:"objects"`
	}
	if err := json.Unmarshal(out.Bytes(), &doc); err != nil {
		t.Fatalf("json: %v\n%s", err, out.String())
	}
	var named []string
	for _, o := range doc.Objects.Refused {
		named = append(named, o.Object()+" "+o.Field)
	}
	if code != cli.ExitBreaking || !slices.Equal(named, []string{"default/high spec.level"}) {
		t.Errorf("json: exit %d, refused %v, want default/high spec.level", code, named)
	}
}

// installedMeters installs the Meter CRD of dir with a level of at most
// 30, stores the four objects, then narrows the CRD to dir's; it is
// deleted when the test ends.
func installedMeters(ctx context.Context, t *testing.T, dir string) *unstructured.Unstructured {
	t.Helper()
	side, err := crdcheck.Generate(pipeline.Config{Dir: dir})
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
	wide := setMaximum(t, crd.DeepCopy(), 30)
	if err := cluster.ApplyCRD(ctx, wide); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := cluster.Dynamic.Resource(CRDResource).Delete(context.Background(), name, metav1.DeleteOptions{}); err != nil {
			t.Errorf("deleting %s: %v", name, err)
		}
	})
	if err := cluster.WaitEstablished(ctx, name); err != nil {
		t.Fatal(err)
	}
	gvr := schema.GroupVersionResource{Group: "objects.crdforge.test", Version: "v1", Resource: "meters"}
	for objName, level := range map[string]int64{"low": 5, "mid": 8, "high": 15, "ancient": 25} {
		m := &unstructured.Unstructured{Object: map[string]any{
			"apiVersion": "objects.crdforge.test/v1", "kind": "Meter",
			"metadata": map[string]any{"name": objName, "namespace": "default"},
			"spec":     map[string]any{"level": level},
		}}
		if err := PollFor(ctx, time1m, func() error {
			_, err := cluster.Dynamic.Resource(gvr).Namespace("default").Create(ctx, m, metav1.CreateOptions{})
			return err
		}); err != nil {
			t.Fatalf("storing %s: %v", objName, err)
		}
	}
	if err := cluster.ApplyCRD(ctx, crd); err != nil {
		t.Fatal(err)
	}
	return crd
}

// setMaximum sets the maximum of spec.level in every version of crd.
func setMaximum(t *testing.T, crd *unstructured.Unstructured, maximum int64) *unstructured.Unstructured {
	t.Helper()
	versions, _, _ := unstructured.NestedSlice(crd.Object, "spec", "versions")
	for _, v := range versions {
		path := []string{"schema", "openAPIV3Schema", "properties", "spec", "properties", "level", "maximum"}
		if err := unstructured.SetNestedField(v.(map[string]any), maximum, path...); err != nil {
			t.Fatal(fmt.Errorf("setting %s: %w", strings.Join(path, "."), err))
		}
	}
	if err := unstructured.SetNestedSlice(crd.Object, versions, "spec", "versions"); err != nil {
		t.Fatal(err)
	}
	return crd
}
