package e2e

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"
)

// lifeProject copies examples/crontab's v1 alone (its hand-written files:
// a kind with one version) into a scratch directory inside the module,
// under group, and returns the directory.
func lifeProject(t *testing.T, group string) string {
	t.Helper()
	dir := scratchDir(t, "life-")
	src := filepath.Join(repoRoot, "examples", "crontab")
	copyProject(t, src, dir, func(rel string) bool { return strings.HasPrefix(rel, "api/v1/") },
		strings.NewReplacer("example.com", group))
	return dir
}

// newVersionV2 runs crdforge new-version v2 in lifeProject's dir, and gives
// v2 what a new version is for: a field. Its schema differs from v1's then,
// so the kind converts through the webhook, and v1 objects keep v2's field
// through the round trip.
func newVersionV2(t *testing.T, dir string) {
	t.Helper()
	out := crdforgeIn(t, dir, "new-version", "v2")
	t.Logf("crdforge new-version v2:\n%s", out)
	types := filepath.Join(dir, "api", "v2", "crontab_types.go")
	b, err := os.ReadFile(types)
	if err != nil {
		t.Fatal(err)
	}
	anchor := []byte("type CronTabSpec struct {\n")
	if !bytes.Contains(b, anchor) {
		t.Fatalf("%s has no CronTabSpec", types)
	}
	b = bytes.Replace(b, anchor, append(anchor, []byte("\t// TimeZone is the schedule's time zone.\n\t// +optional\n\tTimeZone string `json:\"timeZone,omitempty\"`\n\n")...), 1)
	if err := os.WriteFile(types, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// crdforgeIn runs the built crdforge in dir and fails the test unless it
// exits 0.
func crdforgeIn(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := execIn(dir, crdforge, args...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("crdforge %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// TestVersionLife is a version's whole life, with each migrate engine: a
// kind with only v1; crdforge new-version v2; the generated CRD and webhook
// installed; objects created at v1 and v2; v2 made the storage version;
// crdforge migrate; etcd holding every object at v2 and storedVersions [v2];
// crdforge status saying v1 can go; v1 unserved, then removed, which the
// API server accepts.
func TestVersionLife(t *testing.T) {
	for _, engine := range []string{"cluster", "client"} {
		t.Run(engine, func(t *testing.T) { versionLife(t, engine) })
	}
}

// lifeSetUp is the first half of a version's life, shared by the tests:
// the one-version project under group, new-version v2, the generated CRD
// and webhook installed, perVersion objects created at v1 and at v2 in
// namespace "life", and v2 made the storage version. Logs of the webhook
// (and of whatever else the test starts) go to the returned file.
func lifeSetUp(t *testing.T, group string, perVersion int) (*Example, *os.File) {
	t.Helper()
	needCluster(t)
	ctx := context.Background()
	dir := lifeProject(t, group)

	crdforgeIn(t, dir, "generate", "./...")
	newVersionV2(t, dir)
	crdforgeIn(t, dir, "generate", "./...")

	work := t.TempDir()
	logf, err := os.Create(filepath.Join(work, "logs"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if t.Failed() {
			if b, err := os.ReadFile(logf.Name()); err == nil {
				t.Logf("webhook and controller-manager logs:\n%s", tail(string(b), 6000))
			}
		}
		if err := logf.Close(); err != nil {
			t.Error(err)
		}
	})
	e, err := SetUpProject(ctx, cluster, crdforge, dir, "life-"+group, work, logf, t.Logf)
	if err != nil {
		t.Fatal(err)
	}
	crdName := e.CRD.GetName()
	t.Cleanup(func() {
		if err := e.Stop(); err != nil {
			t.Errorf("stopping the webhook: %v", err)
		}
		if err := cluster.Dynamic.Resource(CRDResource).Delete(ctx, crdName, metav1.DeleteOptions{}); err != nil {
			t.Errorf("deleting %s: %v", crdName, err)
		}
	})
	if got := e.Storage(); got != "v1" || !slices.Equal(e.Served(), []string{"v2", "v1"}) {
		t.Fatalf("after new-version: storage %s, served %v; want v1, and v2 served beside it", got, e.Served())
	}
	ns := "life"
	createNamespace(t, ns)
	if err := e.WaitConversion(ctx, cluster, e.Obj("v1", ns, "probe", map[string]any{"host": "p", "port": "1"})); err != nil {
		t.Fatalf("conversion never worked: %v", err)
	}
	for _, v := range []string{"v1", "v2"} {
		for i := range perVersion {
			obj := e.Obj(v, ns, fmt.Sprintf("%s-%d", v, i), map[string]any{
				"host": fmt.Sprintf("h%d", i), "port": fmt.Sprint(i), "spec": map[string]any{"image": "img", "replicas": int64(1)}})
			if _, err := cluster.Dynamic.Resource(e.Resource(v)).Namespace(ns).Create(ctx, obj, metav1.CreateOptions{}); err != nil {
				t.Fatal(err)
			}
		}
	}
	if got := etcdPrefixVersions(t, lifePrefix(e)); got[group+"/v1"] != 2*perVersion {
		t.Fatalf("etcd holds %v, want all %d at v1 (the storage version)", got, 2*perVersion)
	}

	// v2 becomes the storage version.
	crd, err := cluster.UpdateCRD(ctx, crdName, func(u *unstructured.Unstructured) error {
		return SetVersionFields(u, "v2", map[string]any{"storage": true})
	})
	if err != nil {
		t.Fatal(err)
	}
	e.CRD = crd
	migrateWaitStorage(t, e, ns, "v2")
	return e, logf
}

// lifePrefix is where etcd keeps the objects of e.
func lifePrefix(e *Example) string { return "/registry/" + e.Group + "/" + e.Plural + "/" }

func versionLife(t *testing.T, engine string) {
	ctx := context.Background()
	group := "life-" + engine + ".e2e.crdforge.io"
	const perVersion = 25
	e, logf := lifeSetUp(t, group, perVersion)
	crdName, ns, prefix := e.CRD.GetName(), "life", lifePrefix(e)
	if r := crdforgeStatus(t, crdName); r.Step.Name != "migrate" || r.Webhook == nil || !r.Webhook.Answers {
		t.Fatalf("status before the migration: %+v, webhook %+v; want step migrate and a webhook that answers", r.Step, r.Webhook)
	}

	if engine == "cluster" {
		// --print: the manifest a GitOps repository would apply instead.
		printed, stderr, code := runCrdforge(t, "migrate", crdName, "--kubeconfig", cluster.Kubeconfig, "--print")
		svmAPI := cluster.StorageMigration.GroupVersion().String()
		for _, want := range []string{"apiVersion: " + svmAPI + "\n", "kind: StorageVersionMigration\n",
			"  name: " + crdName + "-v2\n", "    group: " + group + "\n", "    resource: " + e.Plural + "\n"} {
			if code != 0 || !strings.Contains(printed, want) {
				t.Errorf("crdforge migrate --print: exit %d, no %q in\n%s%s", code, want, printed, stderr)
			}
		}
		cm, err := cluster.StartControllerManager(controllerManager(t), logf)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() {
			if err := cm.Stop(); err != nil {
				t.Error(err)
			}
		})
	}
	nudged := func() {}
	if engine == "cluster" {
		// One annotation, through the webhook: the object is written at v2,
		// as the migrator would write it.
		nudged = nudgeMigrator(t, group, func(ctx context.Context) error {
			_, err := cluster.Dynamic.Resource(e.Resource("v2")).Namespace(ns).Patch(ctx, "v1-0", types.MergePatchType,
				[]byte(`{"metadata":{"annotations":{"e2e.crdforge.io/nudge":"migrator"}}}`), metav1.PatchOptions{})
			return err
		})
	}
	stdout, stderr, code := runCrdforge(t, "migrate", crdName, "--kubeconfig", cluster.Kubeconfig, "--engine", engine)
	nudged()
	t.Logf("crdforge migrate --engine %s: exit %d\n%s%s", engine, code, stdout, stderr)
	if code != 0 {
		t.Fatalf("crdforge migrate --engine %s: exit %d", engine, code)
	}
	if engine == "cluster" {
		// The migrator trims storedVersions itself from 1.36 on
		// (kubernetes/kubernetes#135297); before, crdforge does.
		setBy := "crdforge"
		if cluster.Release.AtLeast(1, 36) {
			setBy = "the migrator"
		}
		for _, want := range []string{"engine: cluster (created " + cluster.StorageMigration.GroupVersion().String() + " StorageVersionMigration " + crdName + "-",
			"the migrator moved 50 of 50 objects to v2; Succeeded", "status.storedVersions: [v1 v2] -> [v2] (set by " + setBy + ")"} {
			if !strings.Contains(stdout, want) {
				t.Errorf("the report lacks %q", want)
			}
		}
	}
	if got := etcdPrefixVersions(t, prefix); got[group+"/v2"] != 2*perVersion || len(got) != 1 {
		t.Errorf("etcd holds %v after the migration, want all %d at v2", got, 2*perVersion)
	}
	if sv := storedVersions(t, crdName); !slices.Equal(sv, []string{"v2"}) {
		t.Errorf("status.storedVersions %v, want [v2]", sv)
	}
	if r := crdforgeStatus(t, crdName); r.Step.Name != "stop-serving" || !strings.Contains(r.Step.Next, "deprecate v1") {
		t.Errorf("status after the migration: %+v; want stop-serving, deprecate v1", r.Step)
	}
	if _, err := cluster.UpdateCRD(ctx, crdName, func(u *unstructured.Unstructured) error {
		return SetVersionFields(u, "v1", map[string]any{"served": false})
	}); err != nil {
		t.Fatal(err)
	}
	if r := crdforgeStatus(t, crdName); r.Step.Name != "remove" {
		t.Errorf("status with v1 unserved: %+v; want remove", r.Step)
	}
	if _, err := cluster.UpdateCRD(ctx, crdName, func(u *unstructured.Unstructured) error { return dropVersion(u, "v1") }); err != nil {
		t.Fatalf("the API server refused to drop v1 after the migration: %v", err)
	}
	if r := crdforgeStatus(t, crdName); r.Step.Name != "settled" {
		t.Errorf("status with v2 alone: %+v; want settled", r.Step)
	}
	if n := len(listAll(t, e, "v2", ns)); n != 2*perVersion {
		t.Errorf("%d objects readable at v2 after v1 went, want %d", n, 2*perVersion)
	}
}

func listAll(t *testing.T, e *Example, version, ns string) []unstructured.Unstructured {
	t.Helper()
	l, err := cluster.Dynamic.Resource(e.Resource(version)).Namespace(ns).List(context.Background(), metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return l.Items
}

func execIn(dir, bin string, args ...string) *exec.Cmd {
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	return cmd
}

// TestMigrateClusterWebhookDown: the conversion webhook goes down after
// crdforge's check and before the cluster's migrator runs. crdforge exits 1
// with the server's reason, and status.storedVersions and the stored
// objects stay as they were.
func TestMigrateClusterWebhookDown(t *testing.T) {
	needCluster(t)
	ctx := context.Background()
	group := "life-down.e2e.crdforge.io"
	e, logf := lifeSetUp(t, group, 10)
	crdName := e.CRD.GetName()

	// No migrator runs yet: crdforge's check passes and it creates the
	// migration, which waits. The timeout covers the controller-manager's
	// start, its garbage collector's first sync (nudged below) and the
	// migrator's first tries, which fail on the webhook.
	cmd := exec.Command(crdforge, "migrate", crdName, "--kubeconfig", cluster.Kubeconfig, "--engine", "cluster", "--timeout", "45s")
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	if err := PollFor(ctx, time1m, func() error {
		svms, err := migrationsOf(ctx, group)
		if err == nil && len(svms) == 0 {
			err = fmt.Errorf("no StorageVersionMigration for %s yet", group)
		}
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if err := e.Stop(); err != nil {
		t.Fatal(err)
	}
	// With the webhook down, only an object created at the storage version
	// (v2) can be written; the 20 at v1 stay as they are.
	nudged := nudgeMigrator(t, group, func(ctx context.Context) error {
		_, err := cluster.Dynamic.Resource(e.Resource("v2")).Namespace("life").Create(ctx,
			e.Obj("v2", "life", "nudge", map[string]any{"host": "n", "port": "1"}), metav1.CreateOptions{})
		return err
	})
	cm, err := cluster.StartControllerManager(controllerManager(t), logf)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := cm.Stop(); err != nil {
			t.Error(err)
		}
	})
	err = <-exited
	nudged()
	t.Logf("crdforge migrate --engine cluster with the webhook down: %v\nstdout:\n%s\nstderr:\n%s", err, out.String(), errb.String())
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 1 {
		t.Fatalf("exit %v, want 1", err)
	}
	if !strings.Contains(errb.String(), "conversion webhook") {
		t.Errorf("stderr does not carry the server's reason (the conversion webhook failing)")
	}
	if sv := storedVersions(t, crdName); !slices.Equal(sv, []string{"v1", "v2"}) {
		t.Errorf("status.storedVersions %v, want [v1 v2] left alone", sv)
	}
	if got := etcdPrefixVersions(t, lifePrefix(e)); got[group+"/v1"] != 20 {
		t.Errorf("etcd holds %v, want all 20 still at v1", got)
	}
}
