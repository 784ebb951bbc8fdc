package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/crdforge/crdforge/cmd/crdforge/cli"
)

// TestMigrate: `crdforge migrate` on examples/crontab, the seed's "upgrade
// existing objects to a new stored version" procedure (v1beta1 -> v1).
//
// It shares the suite's control plane, and the crontab CRD with TestCronTab
// (a copy under another group would not convert: the generated webhook knows
// its own group only). It sets the example up again with its own webhook
// process, as TestCronTab does (setUpExample re-applies the generated spec
// pointed at that webhook), keeps its objects in namespaces of its own, and
// in a cleanup re-applies the generated spec (putting v1beta1 back) and
// deletes its objects. storedVersions stay [v1] afterwards, which is what
// a fresh install has. Objects other tests left in "default" are migrated
// too; that is harmless (they read the same).
//
// Its runs use the client engine (TestVersionLife runs both engines). The
// migrate runs go through the cobra command (cli.RunMigrate, with the
// harness's kubeconfig), not the built binary: registering the command in
// cli.go is a separate change.
func TestMigrate(t *testing.T) {
	e := setUpExample(t, "crontab", map[string]any{"host": "probe", "port": "1"})
	ctx := context.Background()
	crdName := e.CRD.GetName()
	orig := e.CRD.DeepCopy()
	namespaces := []string{"migrate-a", "migrate-b", "migrate-c"}
	const perNS = 100
	total := perNS * len(namespaces)
	oldAPI, newAPI := e.Group+"/v1beta1", e.Group+"/v1"

	t.Cleanup(func() {
		if err := cluster.ApplyCRD(ctx, orig); err != nil {
			t.Errorf("restoring %s: %v", crdName, err)
			return
		}
		if err := cluster.WaitEstablished(ctx, crdName); err != nil {
			t.Errorf("restoring %s: %v", crdName, err)
		}
		for _, n := range namespaces {
			if err := PollFor(ctx, time1m, func() error {
				return cluster.Dynamic.Resource(e.Resource("v1")).Namespace(n).DeleteCollection(ctx, metav1.DeleteOptions{}, metav1.ListOptions{})
			}); err != nil {
				t.Errorf("deleting the crontabs of %s: %v", n, err)
			}
		}
	})

	nsRes := schema.GroupVersionResource{Version: "v1", Resource: "namespaces"}
	for _, n := range namespaces {
		obj := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "v1", "kind": "Namespace", "metadata": map[string]any{"name": n}}}
		if _, err := cluster.Dynamic.Resource(nsRes).Create(ctx, obj, metav1.CreateOptions{}); err != nil && !apierrors.IsAlreadyExists(err) {
			t.Fatal(err)
		}
	}

	setStorage := func(v string) {
		t.Helper()
		crd, err := cluster.UpdateCRD(ctx, crdName, func(u *unstructured.Unstructured) error {
			return SetVersionFields(u, v, map[string]any{"storage": true})
		})
		if err != nil {
			t.Fatalf("moving storage to %s: %v", v, err)
		}
		e.CRD = crd
		migrateWaitStorage(t, e, namespaces[0], v)
	}

	// The old state: everything stored at v1beta1.
	setStorage("v1beta1")
	start := time.Now()
	createMany(t, e, namespaces, perNS)
	t.Logf("created %d crontabs at v1beta1 in %s", total, time.Since(start).Round(time.Millisecond))
	if got := etcdVersions(t, e, namespaces); got[oldAPI] != total {
		t.Fatalf("etcd holds %v of our objects, want %d at %s", got, total, oldAPI)
	}

	// Step 1 of the procedure: storage moves to v1.
	setStorage("v1")
	if sv := storedVersions(t, crdName); !slices.Contains(sv, "v1beta1") || !slices.Contains(sv, "v1") {
		t.Fatalf("status.storedVersions = %v, want v1beta1 and v1", sv)
	}
	_, err := cluster.UpdateCRD(ctx, crdName, func(u *unstructured.Unstructured) error { return dropVersion(u, "v1beta1") })
	if err == nil || !strings.Contains(err.Error(), "storedVersions") {
		t.Fatalf("removing v1beta1 before the migration: %v, want a storedVersions error", err)
	}
	t.Logf("before the migration, removing v1beta1 fails: %v", err)

	run := func(t *testing.T, hook func(int), args ...string) (int, string, string) {
		t.Helper()
		var out, errb bytes.Buffer
		start := time.Now()
		code := cli.RunMigrate(ctx, append([]string{crdName, "--kubeconfig", cluster.Kubeconfig, "--engine", "client"}, args...), &out, &errb, hook)
		t.Logf("crdforge migrate %s %s: exit %d in %s\nstdout:\n%s\nstderr:\n%s", crdName, strings.Join(args, " "), code,
			time.Since(start).Round(time.Millisecond), out.String(), tail(errb.String(), 1500))
		return code, out.String(), errb.String()
	}
	unchangedState := func(t *testing.T) {
		t.Helper()
		if got := etcdVersions(t, e, namespaces); got[oldAPI] != total {
			t.Errorf("etcd holds %v of our objects, want all %d still at %s", got, total, oldAPI)
		}
		if sv := storedVersions(t, crdName); !slices.Contains(sv, "v1beta1") {
			t.Errorf("status.storedVersions = %v, want v1beta1 still there", sv)
		}
	}

	t.Run("usage errors", func(t *testing.T) {
		if code, _, _ := run(t, nil, "--chunk-size", "0"); code != cli.ExitErrors {
			t.Errorf("--chunk-size 0: exit %d, want %d", code, cli.ExitErrors)
		}
		var out, errb bytes.Buffer
		code := cli.RunMigrate(ctx, []string{"nosuch.example.com", "--kubeconfig", cluster.Kubeconfig}, &out, &errb, nil)
		if code != cli.ExitErrors || !strings.Contains(errb.String(), "no CustomResourceDefinition") {
			t.Errorf("unknown CRD: exit %d, stderr %q; want %d", code, errb.String(), cli.ExitErrors)
		}
	})

	t.Run("dry run", func(t *testing.T) {
		code, out, _ := run(t, nil, "--dry-run")
		if code != 0 || !strings.Contains(out, "would rewrite") {
			t.Errorf("exit %d, stdout %q; want 0 and a would-rewrite summary", code, out)
		}
		unchangedState(t)
	})

	t.Run("webhook down", func(t *testing.T) {
		cc, _, _ := unstructured.NestedMap(orig.Object, "spec", "conversion", "webhook", "clientConfig")
		setURL := func(url string) {
			t.Helper()
			crd, err := cluster.UpdateCRD(ctx, crdName, func(u *unstructured.Unstructured) error {
				m := map[string]any{"url": url, "caBundle": cc["caBundle"]}
				return unstructured.SetNestedMap(u.Object, m, "spec", "conversion", "webhook", "clientConfig")
			})
			if err != nil {
				t.Fatal(err)
			}
			e.CRD = crd
		}
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		closed := l.Addr().String()
		if err := l.Close(); err != nil {
			t.Fatal(err)
		}
		setURL("https://" + closed + "/convert")
		defer func() {
			setURL(cc["url"].(string))
			if err := PollFor(ctx, time1m, func() error {
				_, err := cluster.Dynamic.Resource(e.Resource("v1")).Namespace(namespaces[0]).Get(ctx, objName(0), metav1.GetOptions{})
				return err
			}); err != nil {
				t.Fatalf("conversion not back: %v", err)
			}
		}()
		// Stored at v1beta1, read at v1: only the webhook can answer.
		probe := namespaces[0] + "/" + objName(0)
		if err := Poll(ctx, time1m, func() (bool, error) {
			_, err := cluster.Dynamic.Resource(e.Resource("v1")).Namespace(namespaces[0]).Get(ctx, objName(0), metav1.GetOptions{})
			return err != nil, nil
		}); err != nil {
			t.Fatalf("reads of %s kept working with the webhook at a closed port: %v", probe, err)
		}
		code, _, stderr := run(t, nil)
		if code != cli.ExitMigrateFailed || !strings.Contains(stderr, "conversion webhook check failed") || !strings.Contains(stderr, "nothing was changed") {
			t.Errorf("exit %d, stderr %q; want %d and the webhook check's refusal", code, stderr, cli.ExitMigrateFailed)
		}
		unchangedState(t)
	})

	t.Run("interrupted then resumed", func(t *testing.T) {
		const stopAt = 120
		rctx, cancel := context.WithCancel(ctx)
		defer cancel()
		var out, errb bytes.Buffer
		code := cli.RunMigrate(rctx, []string{crdName, "--kubeconfig", cluster.Kubeconfig, "--engine", "client", "--chunk-size", "50"}, &out, &errb,
			func(done int) {
				if done == stopAt {
					cancel()
				}
			})
		t.Logf("interrupted run: exit %d\nstdout:\n%s\nstderr:\n%s", code, out.String(), tail(errb.String(), 1500))
		if code != cli.ExitMigrateFailed || !strings.Contains(errb.String(), "interrupted") {
			t.Errorf("interrupted run: exit %d; want %d and an interrupted message", code, cli.ExitMigrateFailed)
		}
		got := etcdVersions(t, e, namespaces)
		t.Logf("after the interruption etcd holds %v", got)
		if got[oldAPI] == 0 {
			t.Errorf("the interrupted run did them all: %v", got)
		}
		if sv := storedVersions(t, crdName); !slices.Contains(sv, "v1beta1") {
			t.Errorf("status.storedVersions = %v after an interrupted run, want v1beta1 still there", sv)
		}

		// The second run goes as a ServiceAccount bound to the generated
		// migrate ClusterRole alone; first, each rule it needs before
		// writing anything is taken away in turn, and the run is forbidden.
		id := setUpMigrateIdentity(t, e)
		asSA := []string{"--kubeconfig", id.kubeconfig}
		for _, resource := range []string{"customresourcedefinitions", e.Plural} {
			id.without(t, resource)
			code, _, stderr := run(t, nil, asSA...)
			if code == 0 || !strings.Contains(stderr, "forbidden") {
				t.Errorf("without the rule for %s: exit %d, stderr %q; want a forbidden error", resource, code, stderr)
			}
		}
		id.without(t, "")
		code, stdout, _ := run(t, nil, append([]string{"--concurrency", "8"}, asSA...)...)
		if code != 0 {
			t.Fatalf("second run, with the generated role: exit %d", code)
		}
		if !strings.Contains(stdout, "storage version check: discovery reports storage version v1") {
			t.Errorf("second run's output %q lacks the discovery check (migrate's storageVersionHash disagrees with the API server?)", stdout)
		}
		if !strings.Contains(stdout, "failed 0") {
			t.Errorf("second run's summary %q says something failed", stdout)
		}
		if got := etcdVersions(t, e, namespaces); got[newAPI] != total || len(got) != 1 {
			t.Errorf("after the second run etcd holds %v of our objects, want all %d at %s", got, total, newAPI)
		}
		if all := etcdAllVersions(t, e); len(all) != 1 || all[newAPI] == 0 {
			t.Errorf("after the second run etcd holds %v crontabs, want all at %s", all, newAPI)
		}
		if sv := storedVersions(t, crdName); !slices.Equal(sv, []string{"v1"}) {
			t.Errorf("status.storedVersions = %v, want [v1]", sv)
		}
		migrateRoleLastRules(t, e, id, run)
	})

	// kubernetes/kubernetes#111937: managedFields entries of a version
	// outlive it. Our objects were created through v1beta1, so their one
	// entry says example.com/v1beta1; once v1beta1 is not served, migrate
	// drops it (and, the list becoming empty, sends [{}], which the API
	// server takes as "clear").
	t.Run("managedFields of unserved versions", func(t *testing.T) {
		if !slices.Contains(managedAPIVersions(t, e, namespaces[1], objName(1)), oldAPI) {
			t.Fatalf("%s has no %s managedFields entry to begin with", objName(1), oldAPI)
		}
		crd, err := cluster.UpdateCRD(ctx, crdName, func(u *unstructured.Unstructured) error {
			return SetVersionFields(u, "v1beta1", map[string]any{"served": false})
		})
		if err != nil {
			t.Fatal(err)
		}
		e.CRD = crd
		if err := Poll(ctx, time1m, func() (bool, error) {
			_, err := cluster.Dynamic.Resource(e.Resource("v1beta1")).Namespace(namespaces[1]).List(ctx, metav1.ListOptions{Limit: 1})
			return isNotFound404(err), nil
		}); err != nil {
			t.Fatalf("v1beta1 still served: %v", err)
		}
		code, stdout, _ := run(t, nil)
		if code != 0 || !strings.Contains(stdout, "managedFields entries of unserved versions") {
			t.Errorf("exit %d, stdout %q; want 0 and dropped managedFields", code, stdout)
		}
		for i, n := range namespaces {
			mf := managedAPIVersions(t, e, n, objName(i*7))
			if slices.Contains(mf, oldAPI) {
				t.Errorf("%s/%s still has managedFields at %s: %v", n, objName(i*7), oldAPI, mf)
			}
			if i == 0 {
				t.Logf("%s/%s managedFields apiVersions now %v", n, objName(i*7), mf)
			}
		}
		// Idempotent: again, nothing is written.
		code, stdout, _ = run(t, nil)
		if n, ok := countOf(stdout); code != 0 || !ok || !strings.Contains(stdout, fmt.Sprintf("(%d already stored there)", n)) {
			t.Errorf("third run: exit %d, stdout %q; want every object already stored", code, stdout)
		}
	})

	// Step 4 of the seed's procedure now succeeds.
	t.Run("remove v1beta1", func(t *testing.T) {
		crd, err := cluster.UpdateCRD(ctx, crdName, func(u *unstructured.Unstructured) error { return dropVersion(u, "v1beta1") })
		if err != nil {
			t.Fatalf("removing v1beta1 after the migration: %v", err)
		}
		e.CRD = crd
		if vs := Versions(crd); len(vs) != 1 || vs[0]["name"] != "v1" {
			t.Errorf("spec.versions now %v", vs)
		}
		got := getDynamicNS(t, e, "v1", namespaces[2], objName(5))
		check(t, objName(5), got, fields{"host": "h-5", "port": "5", "hostPort": absent, "spec.image": "img"})
		if sv := storedVersions(t, crdName); !slices.Equal(sv, []string{"v1"}) {
			t.Errorf("status.storedVersions = %v, want [v1]", sv)
		}
	})
}

func objName(i int) string { return fmt.Sprintf("mig-%03d", i) }

// countOf reads the "of N objects" of a summary; ok is false when the
// summary has no such count.
func countOf(summary string) (n int, ok bool) {
	i := strings.Index(summary, " of ")
	if i < 0 {
		return 0, false
	}
	if _, err := fmt.Sscanf(summary[i+4:], "%d", &n); err != nil {
		return 0, false
	}
	return n, true
}

// createMany creates perNS crontabs at v1beta1 in each namespace.
func createMany(t *testing.T, e *Example, namespaces []string, perNS int) {
	t.Helper()
	ctx := context.Background()
	type job struct {
		ns string
		i  int
	}
	jobs := make(chan job)
	var mu sync.Mutex
	var errs []error
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				obj := e.Obj("v1beta1", j.ns, objName(j.i), map[string]any{
					"hostPort": fmt.Sprintf("h-%d:%d", j.i, j.i),
					"spec":     map[string]any{"cronSpec": "* * * * *", "image": "img", "replicas": int64(1)},
				})
				_, err := cluster.Dynamic.Resource(e.Resource("v1beta1")).Namespace(j.ns).Create(ctx, obj, metav1.CreateOptions{})
				if err != nil {
					mu.Lock()
					errs = append(errs, err)
					mu.Unlock()
				}
			}
		}()
	}
	for _, n := range namespaces {
		for i := range perNS {
			jobs <- job{n, i}
		}
	}
	close(jobs)
	wg.Wait()
	if len(errs) > 0 {
		t.Fatalf("%d creates failed, first: %v", len(errs), errs[0])
	}
}

// migrateWaitStorage writes probes into ns until one lands in etcd at
// version (the API server switches storage once it has rebuilt the CRD's
// handler), and deletes them.
func migrateWaitStorage(t *testing.T, e *Example, ns, version string) {
	t.Helper()
	ctx := context.Background()
	ri := cluster.Dynamic.Resource(e.Resource("v1")).Namespace(ns)
	i := 0
	var names []string
	defer func() {
		for _, n := range names {
			if err := ri.Delete(ctx, n, metav1.DeleteOptions{}); err != nil && !apierrors.IsNotFound(err) {
				t.Errorf("deleting the storage probe %s/%s: %v", ns, n, err)
			}
		}
	}()
	if err := PollFor(ctx, time1m, func() error {
		i++
		name := fmt.Sprintf("storage-probe-%s-%d", version, i)
		obj := e.Obj("v1", ns, name, map[string]any{"host": "p", "port": "1", "spec": map[string]any{"image": "p"}})
		if _, err := ri.Create(ctx, obj, metav1.CreateOptions{}); err != nil {
			return err
		}
		names = append(names, name)
		if got := etcdGet(t, e, ns, name)["apiVersion"]; got != e.Group+"/"+version {
			return fmt.Errorf("%s stored as %v", name, got)
		}
		return nil
	}); err != nil {
		t.Fatalf("writes never stored at %s: %v", version, err)
	}
}

func etcdClient(t *testing.T) *clientv3.Client {
	t.Helper()
	cli, err := clientv3.New(clientv3.Config{Endpoints: []string{cluster.EtcdURL}, DialTimeout: 10 * time.Second})
	if err != nil {
		t.Fatalf("etcd client: %v", err)
	}
	return cli
}

// closeEtcd closes an etcd client and fails the test if that fails. Close
// cancels the client's own context first, and reports that cancellation
// when the client had no connection left to close: not a failure.
func closeEtcd(t *testing.T, cli *clientv3.Client) {
	t.Helper()
	if err := cli.Close(); err != nil && !errors.Is(err, context.Canceled) {
		t.Errorf("closing the etcd client: %v", err)
	}
}

func etcdGet(t *testing.T, e *Example, ns, name string) map[string]any {
	t.Helper()
	cli := etcdClient(t)
	defer closeEtcd(t, cli)
	key := "/registry/" + e.Group + "/" + e.Plural + "/" + ns + "/" + name
	resp, err := cli.Get(context.Background(), key)
	if err != nil || len(resp.Kvs) != 1 {
		t.Fatalf("etcd get %s: %v (%d keys)", key, err, len(resp.Kvs))
	}
	var obj map[string]any
	if err := json.Unmarshal(resp.Kvs[0].Value, &obj); err != nil {
		t.Fatalf("etcd %s: %v", key, err)
	}
	return obj
}

// etcdPrefixVersions counts the objects under prefix by stored apiVersion.
func etcdPrefixVersions(t *testing.T, prefix string) map[string]int {
	t.Helper()
	cli := etcdClient(t)
	defer closeEtcd(t, cli)
	resp, err := cli.Get(context.Background(), prefix, clientv3.WithPrefix())
	if err != nil {
		t.Fatalf("etcd get %s*: %v", prefix, err)
	}
	out := map[string]int{}
	for _, kv := range resp.Kvs {
		var obj struct {
			APIVersion string `json:"apiVersion"`
		}
		if err := json.Unmarshal(kv.Value, &obj); err != nil {
			t.Fatalf("etcd %s: %v", kv.Key, err)
		}
		out[obj.APIVersion]++
	}
	return out
}

// etcdVersions counts our namespaces' crontabs by stored apiVersion.
func etcdVersions(t *testing.T, e *Example, namespaces []string) map[string]int {
	t.Helper()
	out := map[string]int{}
	for _, n := range namespaces {
		for k, v := range etcdPrefixVersions(t, "/registry/"+e.Group+"/"+e.Plural+"/"+n+"/") {
			out[k] += v
		}
	}
	return out
}

// etcdAllVersions counts every crontab, in every namespace.
func etcdAllVersions(t *testing.T, e *Example) map[string]int {
	return etcdPrefixVersions(t, "/registry/"+e.Group+"/"+e.Plural+"/")
}

func storedVersions(t *testing.T, name string) []string {
	t.Helper()
	cur, err := cluster.Dynamic.Resource(CRDResource).Get(context.Background(), name, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	sv, _, _ := unstructured.NestedStringSlice(cur.Object, "status", "storedVersions")
	return sv
}

// dropVersion removes version from crd's spec.versions.
func dropVersion(crd *unstructured.Unstructured, version string) error {
	list, _, _ := unstructured.NestedSlice(crd.Object, "spec", "versions")
	list = slices.DeleteFunc(list, func(v any) bool { return v.(map[string]any)["name"] == version })
	return unstructured.SetNestedSlice(crd.Object, list, "spec", "versions")
}

func getDynamicNS(t *testing.T, e *Example, version, ns, name string) map[string]any {
	t.Helper()
	u, err := cluster.Dynamic.Resource(e.Resource(version)).Namespace(ns).Get(context.Background(), name, metav1.GetOptions{})
	if err != nil {
		t.Fatalf("get %s/%s at %s: %v", ns, name, version, err)
	}
	return u.Object
}

// managedAPIVersions lists the apiVersions of ns/name's managedFields
// entries, read at v1.
func managedAPIVersions(t *testing.T, e *Example, ns, name string) []string {
	t.Helper()
	u := &unstructured.Unstructured{Object: getDynamicNS(t, e, "v1", ns, name)}
	var out []string
	for _, m := range u.GetManagedFields() {
		out = append(out, m.APIVersion)
	}
	return out
}
