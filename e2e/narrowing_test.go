package e2e

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// TestNarrowingThroughWebhook: testdata/database, a newcomer's Database
// kind whose v1alpha1 engine is any string and whose v1 (storage) engine
// is an enum of Postgres and MySQL. Generated into a scratch copy, its
// webhook runs for real and the real API server calls it: a v1alpha1 object
// with engine mongodb is refused with the webhook's error, which names the
// object and the field, and nothing is stored; a valid one converts.
func TestNarrowingThroughWebhook(t *testing.T) {
	t.Parallel()
	needCluster(t)
	ctx := context.Background()
	dir := scratchCopy(t, "database")
	cmd := exec.CommandContext(ctx, crdforge, "generate", "./...")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("crdforge generate: %v\n%s", err, out)
	} else if !strings.Contains(string(out), "warning: v1alpha1 DatabaseSpec.Engine narrows to v1 engine") {
		t.Errorf("crdforge generate did not warn about the narrowing:\n%s", out)
	}

	work := t.TempDir()
	logf, err := os.Create(filepath.Join(work, "webhook.log"))
	if err != nil {
		t.Fatal(err)
	}
	e, err := SetUpProject(ctx, cluster, crdforge, dir, "database", work, logf, t.Logf)
	if err != nil {
		t.Fatalf("setting up: %v", err)
	}
	t.Cleanup(func() {
		if err := e.Stop(); err != nil {
			t.Errorf("stopping the webhook: %v", err)
		}
		if err := logf.Close(); err != nil {
			t.Error(err)
		}
	})
	probe := e.Obj("v1", "default", "probe-database", map[string]any{
		"spec": map[string]any{"storage": map[string]any{"size": int64(1)}, "engine": "Postgres"}})
	if err := e.WaitConversion(ctx, cluster, probe); err != nil {
		t.Fatalf("conversion never worked: %v", err)
	}

	bad := e.Obj("v1alpha1", "default", "mongo", map[string]any{
		"spec": map[string]any{"sizeGB": int64(10), "engine": "mongodb"}})
	_, err = cluster.Dynamic.Resource(e.Resource("v1alpha1")).Namespace("default").Create(ctx, bad, metav1.CreateOptions{})
	want := `field engine (v1alpha1 DatabaseSpec.Engine): v1 allows only one of Postgres, MySQL, not "mongodb"`
	if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "default/mongo") {
		t.Errorf("creating engine mongodb through v1alpha1: error %v, want the webhook's, naming default/mongo and carrying %q", err, want)
	} else {
		t.Logf("the API server: %v", err)
	}
	if _, err := cluster.Dynamic.Resource(e.Resource("v1")).Namespace("default").Get(ctx, "mongo", metav1.GetOptions{}); err == nil {
		t.Errorf("the object with engine mongodb was stored")
	}

	good := e.Obj("v1alpha1", "default", "pg", map[string]any{
		"spec": map[string]any{"sizeGB": int64(10), "engine": "Postgres"}})
	if _, err := cluster.Dynamic.Resource(e.Resource("v1alpha1")).Namespace("default").Create(ctx, good, metav1.CreateOptions{}); err != nil {
		t.Fatalf("creating a valid v1alpha1 object: %v", err)
	}
	got, err := cluster.Dynamic.Resource(e.Resource("v1")).Namespace("default").Get(ctx, "pg", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	check(t, "pg at v1", got.Object, fields{"spec.storage.size": int64(10), "spec.engine": "Postgres"})
}

// scratchCopy copies testdata/<name>'s input (no want/, no tests) into
// testdata/_scratch in the repository, so that its packages are in the
// module and their import paths resolve, and rewrites the copy's imports of
// its own packages.
func scratchCopy(t *testing.T, name string) string {
	t.Helper()
	dst := scratchDir(t, "e2e-"+name+"-")
	copyProject(t, filepath.Join(repoRoot, "testdata", name), dst, func(rel string) bool {
		return !strings.HasPrefix(rel, "want/") && !strings.HasSuffix(rel, "_test.go")
	}, strings.NewReplacer("github.com/crdforge/crdforge/testdata/"+name+"/",
		"github.com/crdforge/crdforge/"+filepath.ToSlash(mustRel(t, repoRoot, dst))+"/"))
	return dst
}
