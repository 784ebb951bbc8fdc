package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

const ns = "default"

const time1m = time.Minute

// absent in an expectation says the field must not be there.
type absentT struct{}

var absent = absentT{}

// fields maps dotted paths ("spec.network.port") to expected values.
type fields map[string]any

// norm makes a value comparable whatever decoded it: JSON round trip.
func norm(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprintf("<%v>", err)
	}
	var x any
	if err := json.Unmarshal(b, &x); err != nil {
		return fmt.Sprintf("<%v>", err)
	}
	if b, err = json.Marshal(x); err != nil {
		return fmt.Sprintf("<%v>", err)
	}
	return string(b)
}

func lookup(obj map[string]any, path string) (any, bool) {
	var cur any = obj
	for _, p := range strings.Split(path, ".") {
		m, ok := cur.(map[string]any)
		if !ok {
			return nil, false
		}
		if cur, ok = m[p]; !ok {
			return nil, false
		}
	}
	return cur, true
}

// check compares obj against want, reporting with what.
func check(t *testing.T, what string, obj map[string]any, want fields) {
	t.Helper()
	for _, path := range sortedKeys(want) {
		w := want[path]
		got, ok := lookup(obj, path)
		if w == absent {
			if ok {
				t.Errorf("%s: %s = %s, want it absent", what, path, norm(got))
			}
			continue
		}
		if !ok {
			t.Errorf("%s: %s missing, want %s", what, path, norm(w))
		} else if norm(got) != norm(w) {
			t.Errorf("%s: %s = %s, want %s", what, path, norm(got), norm(w))
		}
	}
}

// annotation is the object's annotation key (keys have dots, so lookup
// cannot find them).
func annotation(obj map[string]any, key string) (string, bool) {
	anns, _ := lookup(obj, "metadata.annotations")
	m, _ := anns.(map[string]any)
	v, ok := m[key].(string)
	return v, ok
}

func sortedKeys[M ~map[string]V, V any](m M) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// content drops what the API server owns, leaving what conversion must keep.
func content(obj map[string]any) map[string]any {
	out := map[string]any{}
	for k, v := range obj {
		if k != "metadata" && k != "apiVersion" && k != "kind" && k != "status" {
			out[k] = v
		}
	}
	return out
}

// getDynamic reads ns/name at version with the dynamic client.
func getDynamic(t *testing.T, e *Example, version, name string) map[string]any {
	t.Helper()
	u, err := cluster.Dynamic.Resource(e.Resource(version)).Namespace(ns).Get(context.Background(), name, metav1.GetOptions{})
	if err != nil {
		t.Fatalf("dynamic get %s %s: %v", e.Resource(version), name, err)
	}
	if u.GetAPIVersion() != e.Group+"/"+version || u.GetKind() != e.Kind {
		t.Errorf("dynamic get %s %s: apiVersion %s kind %s", e.Resource(version), name, u.GetAPIVersion(), u.GetKind())
	}
	return u.Object
}

// getKubectl reads ns/name at version with kubectl get -o json.
func getKubectl(t *testing.T, e *Example, version, name string) map[string]any {
	t.Helper()
	out, _, err := cluster.Kubectl(context.Background(), nil, "get", e.KubectlResource(version), name, "-n", ns, "-o", "json")
	if err != nil {
		t.Fatal(err)
	}
	var obj map[string]any
	if err := json.Unmarshal([]byte(out), &obj); err != nil {
		t.Fatalf("kubectl output: %v\n%s", err, out)
	}
	if obj["apiVersion"] != e.Group+"/"+version || obj["kind"] != e.Kind {
		t.Errorf("kubectl get %s %s: apiVersion %v kind %v", e.KubectlResource(version), name, obj["apiVersion"], obj["kind"])
	}
	return obj
}

// createDynamic creates obj with the dynamic client.
func createDynamic(t *testing.T, e *Example, obj *unstructured.Unstructured) {
	t.Helper()
	v := strings.TrimPrefix(obj.GetAPIVersion(), e.Group+"/")
	if _, err := cluster.Dynamic.Resource(e.Resource(v)).Namespace(ns).Create(context.Background(), obj, metav1.CreateOptions{}); err != nil {
		t.Fatalf("dynamic create %s %s: %v", obj.GetAPIVersion(), obj.GetName(), err)
	}
}

// createKubectl creates obj with kubectl create -f -.
func createKubectl(t *testing.T, obj *unstructured.Unstructured) {
	t.Helper()
	b, _ := json.Marshal(obj.Object)
	if _, _, err := cluster.Kubectl(context.Background(), b, "create", "-f", "-"); err != nil {
		t.Fatal(err)
	}
}

// fixture is an object created through one version, and what it must look
// like through each version.
type fixture struct {
	version string
	name    string
	content map[string]any
	want    map[string]fields // by version
}

// testMatrix creates every fixture through its version twice, with the
// dynamic client and with kubectl, and reads each back through every served
// version with both.
func testMatrix(t *testing.T, e *Example, fixtures []fixture) {
	for _, f := range fixtures {
		for _, creator := range []string{"dynamic", "kubectl"} {
			name := f.name + "-" + creator
			t.Run("create "+f.version+" via "+creator, func(t *testing.T) {
				obj := e.Obj(f.version, ns, name, deepCopy(f.content))
				if creator == "dynamic" {
					createDynamic(t, e, obj)
				} else {
					createKubectl(t, obj)
				}
				for _, v := range e.Served() {
					want, ok := f.want[v]
					if !ok {
						t.Fatalf("fixture %s says nothing about %s", f.name, v)
					}
					check(t, fmt.Sprintf("%s read at %s by dynamic", name, v), getDynamic(t, e, v, name), want)
					check(t, fmt.Sprintf("%s read at %s by kubectl", name, v), getKubectl(t, e, v, name), want)
				}
				// Read back at the version it was written, it is what was written.
				got := content(getDynamic(t, e, f.version, name))
				if norm(got) != norm(f.content) {
					t.Errorf("%s at %s changed:\n got %s\nwant %s", name, f.version, norm(got), norm(f.content))
				}
			})
		}
	}
}

// deepCopy copies an object's content through a JSON round trip, so that the
// copy holds what a decoder would (float64 numbers, []any lists). The callers
// pass literals of JSON values: anything else is a bug in the test, so it
// panics.
func deepCopy(m map[string]any) map[string]any {
	b, err := json.Marshal(m)
	if err != nil {
		panic(fmt.Sprintf("deepCopy: %v", err))
	}
	var out map[string]any
	if err := json.Unmarshal(b, &out); err != nil {
		panic(fmt.Sprintf("deepCopy: %v", err))
	}
	return out
}

// testNothingLost creates an object at newest with content the older
// version lacks, reads it through older (where it must look like atOlder),
// edits it there with edit and writes it back — with the dynamic client
// and, for a second object, with kubectl replace — then reads it at newest:
// it must be the original content with wantEdit's changes, and the stash
// annotation of newest must not show at newest. stashed says whether the
// object read through older must carry that annotation (it does when newest
// has data older cannot hold).
func testNothingLost(t *testing.T, e *Example, newest, older, name string, stashed bool, newContent map[string]any, atOlder fields, edit func(map[string]any), wantEdited map[string]any) {
	ctx := context.Background()
	for _, via := range []string{"dynamic", "kubectl"} {
		name := name + "-" + via
		t.Run(newest+" through "+older+" via "+via, func(t *testing.T) {
			createDynamic(t, e, e.Obj(newest, ns, name, deepCopy(newContent)))
			var old map[string]any
			if via == "dynamic" {
				old = getDynamic(t, e, older, name)
			} else {
				old = getKubectl(t, e, older, name)
			}
			check(t, name+" at "+older, old, atOlder)
			stash := "conversion.crdforge.io/" + newest
			if _, ok := annotation(old, stash); ok != stashed {
				t.Errorf("%s at %s: %s annotation present = %v, want %v; annotations %s", name, older, stash, ok, stashed, norm(old["metadata"].(map[string]any)["annotations"]))
			}
			edit(old)
			if via == "dynamic" {
				if _, err := cluster.Dynamic.Resource(e.Resource(older)).Namespace(ns).Update(ctx, &unstructured.Unstructured{Object: old}, metav1.UpdateOptions{}); err != nil {
					t.Fatalf("update through %s: %v", older, err)
				}
			} else {
				b, _ := json.Marshal(old)
				if _, _, err := cluster.Kubectl(ctx, b, "replace", "-f", "-"); err != nil {
					t.Fatalf("update through %s: %v", older, err)
				}
			}
			for _, reader := range []string{"dynamic", "kubectl"} {
				var back map[string]any
				if reader == "dynamic" {
					back = getDynamic(t, e, newest, name)
				} else {
					back = getKubectl(t, e, newest, name)
				}
				if got := content(back); norm(got) != norm(wantEdited) {
					t.Errorf("%s read at %s by %s after the %s update:\n got %s\nwant %s", name, newest, reader, older, norm(got), norm(wantEdited))
				}
				if _, ok := annotation(back, stash); ok {
					t.Errorf("%s at %s: the %s annotation outlived the round trip", name, newest, stash)
				}
			}
		})
	}
}

// etcdObject reads ns/name of the example's resource straight from etcd.
func etcdObject(t *testing.T, e *Example, name string) map[string]any {
	t.Helper()
	cli := etcdClient(t)
	defer closeEtcd(t, cli)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	key := "/registry/" + e.Group + "/" + e.Plural + "/" + ns + "/" + name
	resp, err := cli.Get(ctx, key)
	if err != nil {
		t.Fatalf("etcd get %s: %v", key, err)
	}
	if len(resp.Kvs) != 1 {
		t.Fatalf("etcd has no %s", key)
	}
	var obj map[string]any
	if err := json.Unmarshal(resp.Kvs[0].Value, &obj); err != nil {
		t.Fatalf("etcd %s is not JSON: %v\n%q", key, err, resp.Kvs[0].Value)
	}
	return obj
}

// testStorageChange checks that obj (created earlier) is stored at the
// current storage version, moves storage to newStorage, and checks that new
// writes — by the dynamic client and kubectl — are stored there, that the
// older object is still stored at the old version and reads at every
// version, and that status.storedVersions lists both.
func testStorageChange(t *testing.T, e *Example, existing, newStorage string, newObj func(name string) *unstructured.Unstructured) {
	ctx := context.Background()
	oldStorage := e.Storage()
	if got := etcdObject(t, e, existing)["apiVersion"]; got != e.Group+"/"+oldStorage {
		t.Fatalf("%s stored in etcd as %v, want %s/%s", existing, got, e.Group, oldStorage)
	}
	crd, err := cluster.UpdateCRD(ctx, e.CRD.GetName(), func(u *unstructured.Unstructured) error {
		return SetVersionFields(u, newStorage, map[string]any{"storage": true})
	})
	if err != nil {
		t.Fatalf("moving storage to %s: %v", newStorage, err)
	}
	e.CRD = crd
	t.Cleanup(func() { // later tests may expect the generated storage version
		crd, err := cluster.UpdateCRD(ctx, e.CRD.GetName(), func(u *unstructured.Unstructured) error {
			return SetVersionFields(u, oldStorage, map[string]any{"storage": true})
		})
		if err == nil {
			e.CRD = crd
		}
	})
	var stored []string
	if err := Poll(ctx, 30*time.Second, func() (bool, error) {
		cur, err := cluster.Dynamic.Resource(CRDResource).Get(ctx, e.CRD.GetName(), metav1.GetOptions{})
		if err != nil {
			return false, err
		}
		stored, _, _ = unstructured.NestedStringSlice(cur.Object, "status", "storedVersions")
		return slices.Contains(stored, oldStorage) && slices.Contains(stored, newStorage), nil
	}); err != nil {
		t.Errorf("status.storedVersions = %v, want %s and %s: %v", stored, oldStorage, newStorage, err)
	}
	t.Logf("status.storedVersions = %v", stored)

	// The API server switches storage once it has rebuilt the CRD's
	// handler: write probes until one lands at the new version.
	i := 0
	if err := PollFor(ctx, time.Minute, func() error {
		i++
		name := fmt.Sprintf("storage-probe-%d", i)
		obj := newObj(name)
		v := strings.TrimPrefix(obj.GetAPIVersion(), e.Group+"/")
		if _, err := cluster.Dynamic.Resource(e.Resource(v)).Namespace(ns).Create(ctx, obj, metav1.CreateOptions{}); err != nil {
			return err
		}
		if got := etcdObject(t, e, name)["apiVersion"]; got != e.Group+"/"+newStorage {
			return fmt.Errorf("%s stored as %v", name, got)
		}
		return nil
	}); err != nil {
		t.Fatalf("new writes never stored at %s: %v", newStorage, err)
	}
	for _, via := range []string{"dynamic", "kubectl"} {
		name := "after-storage-change-" + via
		obj := newObj(name)
		if via == "dynamic" {
			createDynamic(t, e, obj)
		} else {
			createKubectl(t, obj)
		}
		if got := etcdObject(t, e, name)["apiVersion"]; got != e.Group+"/"+newStorage {
			t.Errorf("%s (written by %s through %s) stored in etcd as %v, want %s/%s", name, via, obj.GetAPIVersion(), got, e.Group, newStorage)
		}
	}
	if got := etcdObject(t, e, existing)["apiVersion"]; got != e.Group+"/"+oldStorage {
		t.Errorf("%s, not rewritten, is stored as %v, want still %s/%s", existing, got, e.Group, oldStorage)
	}
	for _, v := range e.Served() {
		getDynamic(t, e, v, existing)
		getDynamic(t, e, v, "after-storage-change-dynamic")
	}
}

// noWarnings checks that reading name at every served version but the
// deprecated ones answers without warnings.
func noWarnings(t *testing.T, e *Example, name string, deprecated ...string) {
	rec := &Warnings{}
	dc, err := cluster.DynamicWithWarnings(rec)
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range e.Served() {
		if slices.Contains(deprecated, v) {
			continue
		}
		if _, err := dc.Resource(e.Resource(v)).Namespace(ns).Get(context.Background(), name, metav1.GetOptions{}); err != nil {
			t.Fatal(err)
		}
		if w := rec.Take(); len(w) != 0 {
			t.Errorf("get at %s warned %q", v, w)
		}
	}
}

// isNotFound404 says whether err is a 404 from the API server.
func isNotFound404(err error) bool {
	if !apierrors.IsNotFound(err) {
		return false
	}
	st, ok := err.(apierrors.APIStatus)
	return ok && st.Status().Code == 404
}
