package e2e

import (
	"context"
	"slices"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

const widgetsDeprecation = "widgets.example.com/v1alpha1 Widget is deprecated; use widgets.example.com/v1 Widget"

// TestWidgets: examples/widgets, widgets.example.com Widget; v1alpha1
// (deprecated, with a custom warning) has title, host, port and legacyID
// where v1 (storage, hub) has displayName, network.host, network.port and
// warranty; v1beta1 sits between. v1's replicas is a pointer, the older
// ones' an int32.
func TestWidgets(t *testing.T) {
	t.Parallel()
	e := setUpExample(t, "widgets", map[string]any{"spec": map[string]any{"displayName": "probe"}})
	ctx := context.Background()

	t.Run("matrix", func(t *testing.T) {
		testMatrix(t, e, []fixture{{
			version: "v1alpha1", name: "from-v1alpha1",
			content: map[string]any{"spec": map[string]any{
				"title": "Alpha", "size": "Small", "host": "a.local", "port": int64(8080), "legacyID": "L-1", "replicas": int64(2),
				"parts":    []any{map[string]any{"name": "gear", "count": int64(3), "weight": "250m"}},
				"finishes": map[string]any{"top": map[string]any{"color": "red", "gloss": int64(80)}},
				"labels":   map[string]any{"tier": "gold"}, "options": map[string]any{"fast": true},
			}},
			want: map[string]fields{
				"v1alpha1": {"spec.title": "Alpha", "spec.legacyID": "L-1", "spec.port": 8080},
				"v1beta1": {"spec.displayName": "Alpha", "spec.network": map[string]any{"host": "a.local", "port": 8080}, "spec.replicas": 2,
					"spec.title": absent, "spec.host": absent, "spec.port": absent, "spec.legacyID": absent, "spec.size": "Small",
					"spec.parts": []any{map[string]any{"name": "gear", "count": 3, "weight": "250m"}}, "spec.options": map[string]any{"fast": true}},
				"v1": {"spec.displayName": "Alpha", "spec.network": map[string]any{"host": "a.local", "port": 8080}, "spec.replicas": 2,
					"spec.title": absent, "spec.host": absent, "spec.legacyID": absent, "spec.warranty": absent,
					"spec.finishes": map[string]any{"top": map[string]any{"color": "red", "gloss": 80}}, "spec.labels": map[string]any{"tier": "gold"}},
			},
		}, {
			version: "v1beta1", name: "from-v1beta1",
			content: map[string]any{"spec": map[string]any{
				"displayName": "Beta", "size": "Medium", "network": map[string]any{"host": "b.local", "port": "http"}, "replicas": int64(3),
			}},
			want: map[string]fields{
				"v1beta1":  {"spec.displayName": "Beta"},
				"v1":       {"spec.displayName": "Beta", "spec.network": map[string]any{"host": "b.local", "port": "http"}, "spec.replicas": 3, "spec.size": "Medium"},
				"v1alpha1": {"spec.title": "Beta", "spec.host": "b.local", "spec.port": "http", "spec.replicas": 3, "spec.network": absent, "spec.displayName": absent},
			},
		}, {
			version: "v1", name: "from-v1",
			content: map[string]any{"spec": map[string]any{
				"displayName": "One", "size": "Large", "network": map[string]any{"host": "o.local", "port": int64(9090)}, "replicas": int64(5),
				"warranty": map[string]any{"years": int64(5), "until": "2030-01-02T03:04:05Z"},
			}},
			want: map[string]fields{
				"v1":       {"spec.warranty.years": 5},
				"v1beta1":  {"spec.displayName": "One", "spec.replicas": 5, "spec.warranty": absent, "spec.network.port": 9090},
				"v1alpha1": {"spec.title": "One", "spec.host": "o.local", "spec.port": 9090, "spec.replicas": 5, "spec.warranty": absent, "spec.size": "Large"},
			},
		}})
	})

	// v1's warranty, the XLarge size and a nil replicas cannot be said in
	// v1alpha1 (or v1beta1); they survive a read-modify-write through it.
	t.Run("nothing lost", func(t *testing.T) {
		orig := map[string]any{"spec": map[string]any{
			"displayName": "Full", "size": "XLarge", "network": map[string]any{"host": "f.local", "port": "https"},
			"warranty": map[string]any{"years": int64(5), "until": "2030-01-02T03:04:05Z"},
			"parts":    []any{map[string]any{"name": "spring", "count": int64(1), "weight": "1500m"}},
		}}
		edited := deepCopy(orig)
		edited["spec"].(map[string]any)["displayName"] = "Renamed through the older version"
		for _, older := range []string{"v1alpha1", "v1beta1"} {
			title := "displayName"
			if older == "v1alpha1" {
				title = "title"
			}
			testNothingLost(t, e, "v1", older, "lossless-"+older, true, orig,
				fields{"spec." + title: "Full", "spec.size": "XLarge", "spec.warranty": absent, "spec.replicas": 0},
				func(old map[string]any) { old["spec"].(map[string]any)[title] = "Renamed through the older version" },
				edited)
		}
		// And the other way round: v1alpha1's legacyID through v1.
		alpha := map[string]any{"spec": map[string]any{"title": "Old", "legacyID": "L-7", "replicas": int64(2), "host": "h", "port": int64(80)}}
		editedAlpha := deepCopy(alpha)
		editedAlpha["spec"].(map[string]any)["replicas"] = int64(6)
		testNothingLost(t, e, "v1alpha1", "v1", "legacy", true, alpha,
			fields{"spec.displayName": "Old", "spec.legacyID": absent, "spec.replicas": 2},
			func(old map[string]any) { old["spec"].(map[string]any)["replicas"] = int64(6) },
			editedAlpha)
	})

	t.Run("deprecation warning", func(t *testing.T) {
		rec := &Warnings{}
		dc, err := cluster.DynamicWithWarnings(rec)
		if err != nil {
			t.Fatal(err)
		}
		alpha := dc.Resource(e.Resource("v1alpha1")).Namespace(ns)
		if _, err := alpha.Get(ctx, "from-v1-dynamic", metav1.GetOptions{}); err != nil {
			t.Fatal(err)
		}
		if w := rec.Take(); !slices.Equal(w, []string{widgetsDeprecation}) {
			t.Errorf("get at v1alpha1 warned %q, want %q", w, widgetsDeprecation)
		}
		if _, err := alpha.Create(ctx, e.Obj("v1alpha1", ns, "warned", map[string]any{"spec": map[string]any{"title": "w", "replicas": int64(1)}}), metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
		if w := rec.Take(); !slices.Contains(w, widgetsDeprecation) {
			t.Errorf("create at v1alpha1 warned %q, want %q", w, widgetsDeprecation)
		}
		if _, err := alpha.List(ctx, metav1.ListOptions{}); err != nil {
			t.Fatal(err)
		}
		if w := rec.Take(); !slices.Contains(w, widgetsDeprecation) {
			t.Errorf("list at v1alpha1 warned %q, want %q", w, widgetsDeprecation)
		}
		_, stderr, err := cluster.Kubectl(ctx, nil, "get", e.KubectlResource("v1alpha1"), "warned", "-n", ns, "-o", "name")
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(stderr, "Warning: "+widgetsDeprecation) {
			t.Errorf("kubectl get at v1alpha1 printed %q, want the warning %q", stderr, widgetsDeprecation)
		}
		noWarnings(t, e, "from-v1-dynamic", "v1alpha1")
	})

	// No example has an unserved version: this sub-test makes one by
	// setting served: false on v1alpha1 in the installed CRD, and puts it
	// back afterwards.
	t.Run("unserved version 404", func(t *testing.T) {
		setServed := func(served bool) {
			t.Helper()
			crd, err := cluster.UpdateCRD(ctx, e.CRD.GetName(), func(u *unstructured.Unstructured) error {
				return SetVersionFields(u, "v1alpha1", map[string]any{"served": served})
			})
			if err != nil {
				t.Fatalf("setting v1alpha1 served: %v: %v", served, err)
			}
			e.CRD = crd
		}
		setServed(false)
		defer func() {
			setServed(true)
			if err := PollFor(ctx, time1m, func() error {
				_, err := cluster.Dynamic.Resource(e.Resource("v1alpha1")).Namespace(ns).Get(ctx, "from-v1-dynamic", metav1.GetOptions{})
				return err
			}); err != nil {
				t.Errorf("v1alpha1 not served again: %v", err)
			}
		}()
		alpha := cluster.Dynamic.Resource(e.Resource("v1alpha1")).Namespace(ns)
		var lastErr error
		if err := Poll(ctx, time1m, func() (bool, error) {
			_, lastErr = alpha.List(ctx, metav1.ListOptions{})
			return isNotFound404(lastErr), nil
		}); err != nil {
			t.Fatalf("list at v1alpha1 never answered 404 (last: %v): %v", lastErr, err)
		}
		if _, err := alpha.Get(ctx, "from-v1-dynamic", metav1.GetOptions{}); !isNotFound404(err) {
			t.Errorf("get of an existing object at unserved v1alpha1: %v, want 404", err)
		}
		_, err := alpha.Create(ctx, e.Obj("v1alpha1", ns, "unserved", map[string]any{"spec": map[string]any{"title": "u", "replicas": int64(1)}}), metav1.CreateOptions{})
		if !isNotFound404(err) {
			t.Errorf("create at unserved v1alpha1: %v, want 404", err)
		}
		if _, _, err := cluster.Kubectl(ctx, nil, "get", e.KubectlResource("v1alpha1"), "from-v1-dynamic", "-n", ns); err == nil {
			t.Error("kubectl get at unserved v1alpha1 succeeded")
		} else {
			t.Logf("kubectl: %v", err)
		}
		for _, v := range []string{"v1", "v1beta1"} {
			getDynamic(t, e, v, "from-v1-dynamic")
		}
	})

	t.Run("server-side apply", func(t *testing.T) { testServerSideApply(t, e) })

	t.Run("storage version change", func(t *testing.T) {
		testStorageChange(t, e, "from-v1beta1-dynamic", "v1beta1", func(name string) *unstructured.Unstructured {
			return e.Obj("v1", ns, name, map[string]any{"spec": map[string]any{
				"displayName": name, "warranty": map[string]any{"years": int64(2)},
			}})
		})
		// v1beta1 has no warranty: etcd keeps it in the stash annotation,
		// and v1 reads it back.
		stored := etcdObject(t, e, "after-storage-change-dynamic")
		if v, _ := annotation(stored, "conversion.crdforge.io/v1"); !strings.Contains(v, `"warranty":{"years":2}`) {
			t.Errorf("etcd object has no conversion.crdforge.io/v1 annotation with the warranty: %s", norm(stored["metadata"]))
		}
		check(t, "after-storage-change-dynamic at v1", getDynamic(t, e, "v1", "after-storage-change-dynamic"),
			fields{"spec.warranty.years": 2, "metadata.annotations": absent})
	})
}
