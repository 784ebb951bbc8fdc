package e2e

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/crdforge/crdforge/generators/crd"
	"github.com/crdforge/crdforge/generators/pipeline"
)

// TestCRDSizeClientSideApply: testdata/bigcrd's Pipeline embeds three
// corev1.PodTemplateSpecs, as operators that run several workloads per
// object do, which makes its CRD too large for client-side kubectl apply.
// crdforge generate warns; the built kubectl's `kubectl apply -f` of that
// CRD fails with "Too long", as the warning says. With
// --fit-crd-bytes=262144 it applies client-side, what kubectl stores in its
// last-applied-configuration annotation is the size crdforge measured, the
// CRD is established and serves: an object applied reads back.
func TestCRDSizeClientSideApply(t *testing.T) {
	t.Parallel()
	needCluster(t)
	ctx := context.Background()
	dir, err := filepath.Abs(filepath.Join("testdata", "bigcrd"))
	if err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	const name = "pipelines.bigcrd.crdforge.test"
	file := "bigcrd.crdforge.test_pipelines.yaml"

	stderr := generateCRDs(t, dir, filepath.Join(out, "full"))
	if !strings.Contains(stderr, "warning: CRD "+name+" is ") || !strings.Contains(stderr, "over client-side apply's limit of 262144") {
		t.Errorf("no warning about the CRD's size:\n%s", stderr)
	}
	_, _, err = cluster.Kubectl(ctx, nil, "apply", "-f", filepath.Join(out, "full", file))
	if err == nil {
		deleteCRD(t, name)
		t.Fatal("client-side kubectl apply of the untrimmed CRD succeeded; want it refused")
	}
	if !strings.Contains(err.Error(), "metadata.annotations: Too long") {
		t.Fatalf("client-side kubectl apply of the untrimmed CRD: %v; want metadata.annotations: Too long", err)
	}

	stderr = generateCRDs(t, dir, filepath.Join(out, "fit"), "--fit-crd-bytes=262144")
	if strings.Contains(stderr, "warning:") || !strings.Contains(stderr, "crdforge: --fit-crd-bytes left ") {
		t.Errorf("fitted run: want no warning, and the trimming said:\n%s", stderr)
	}
	if _, _, err := cluster.Kubectl(ctx, nil, "apply", "-f", filepath.Join(out, "fit", file)); err != nil {
		t.Fatalf("client-side kubectl apply of the fitted CRD: %v", err)
	}
	t.Cleanup(func() { deleteCRD(t, name) })
	if err := cluster.WaitEstablished(ctx, name); err != nil {
		t.Fatal(err)
	}
	installed, err := cluster.Dynamic.Resource(CRDResource).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	applied := installed.GetAnnotations()[crd.LastAppliedAnnotation]
	if want := measured(t, dir); len(crd.LastAppliedAnnotation)+len(applied) != want {
		t.Errorf("kubectl stored %d bytes of annotations; crdforge measured %d", len(crd.LastAppliedAnnotation)+len(applied), want)
	}
	servesPipelines(t)
}

// generateCRDs runs the built crdforge's generate --only crd in dir, its CRDs
// into crdDir, and returns what it printed.
func generateCRDs(t *testing.T, dir, crdDir string, flags ...string) string {
	t.Helper()
	args := append([]string{"generate", "--only", "crd", "--crd-dir", crdDir}, flags...)
	cmd := exec.Command(crdforge, append(args, "./...")...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "CRDFORGE_CACHE=off")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("crdforge %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
	return stderr.String()
}

// measured is the size crdforge measures the fitted CRD at, as the summary
// reports it.
func measured(t *testing.T, dir string) int {
	t.Helper()
	res, err := pipeline.Generate(pipeline.Config{Dir: dir, Only: []string{"crd"}, FitCRDBytes: crd.ClientSideApplyLimit, CRDDir: t.TempDir()})
	if err != nil || res.Diags.HasErrors() {
		t.Fatalf("generating: %v %v", err, res.Diags.Items())
	}
	for _, f := range res.Files {
		if f.CRD != nil {
			return f.CRD.Size
		}
	}
	t.Fatal("no CRD generated")
	return 0
}

// servesPipelines applies a Pipeline client-side and reads it back, its
// pod template whole.
func servesPipelines(t *testing.T) {
	t.Helper()
	ctx := context.Background()
	manifest := []byte(`apiVersion: bigcrd.crdforge.test/v1
kind: Pipeline
metadata:
  name: release-42
  namespace: ` + ns + `
spec:
  build:
    spec:
      containers:
      - name: build
        image: golang:1.26
        args: ["go", "build", "./..."]
`)
	// Until discovery has the new resource, kubectl does not know the kind.
	err := PollFor(ctx, time.Minute, func() error {
		_, _, err := cluster.Kubectl(ctx, manifest, "apply", "-f", "-")
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	gvr := schema.GroupVersionResource{Group: "bigcrd.crdforge.test", Version: "v1", Resource: "pipelines"}
	got, err := cluster.Dynamic.Resource(gvr).Namespace(ns).Get(ctx, "release-42", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	containers, _, _ := unstructured.NestedSlice(got.Object, "spec", "build", "spec", "containers")
	if len(containers) != 1 || containers[0].(map[string]any)["image"] != "golang:1.26" || len(containers[0].(map[string]any)["args"].([]any)) != 3 {
		t.Errorf("read back spec.build = %v", got.Object["spec"])
	}
}

func deleteCRD(t *testing.T, name string) {
	t.Helper()
	if err := cluster.Dynamic.Resource(CRDResource).Delete(context.Background(), name, metav1.DeleteOptions{}); err != nil {
		t.Errorf("deleting %s: %v", name, err)
	}
}
