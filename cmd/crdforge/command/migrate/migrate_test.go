package migrate

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	apiextv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	extfake "k8s.io/apiextensions-apiserver/pkg/client/clientset/clientset/fake"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	dynfake "k8s.io/client-go/dynamic/fake"
	clienttesting "k8s.io/client-go/testing"

	"github.com/crdforge/crdforge/cmd/crdforge/command/migrate/testhook"
)

const group = "example.com"

func testCRD(storage string, served ...string) *apiextv1.CustomResourceDefinition {
	crd := &apiextv1.CustomResourceDefinition{
		ObjectMeta: metav1.ObjectMeta{Name: "crontabs." + group},
		Spec: apiextv1.CustomResourceDefinitionSpec{
			Group:      group,
			Names:      apiextv1.CustomResourceDefinitionNames{Plural: "crontabs", Kind: "CronTab", ListKind: "CronTabList"},
			Scope:      apiextv1.NamespaceScoped,
			Conversion: &apiextv1.CustomResourceConversion{Strategy: apiextv1.WebhookConverter},
		},
		Status: apiextv1.CustomResourceDefinitionStatus{StoredVersions: []string{"v1beta1", "v1"}},
	}
	for _, v := range []string{"v1", "v1beta1"} {
		crd.Spec.Versions = append(crd.Spec.Versions, apiextv1.CustomResourceDefinitionVersion{
			Name: v, Storage: v == storage, Served: slices.Contains(served, v),
		})
	}
	return crd
}

func obj(ns, name string, managed ...string) *unstructured.Unstructured {
	u := &unstructured.Unstructured{Object: map[string]any{"spec": map[string]any{"image": name}}}
	u.SetAPIVersion(group + "/v1")
	u.SetKind("CronTab")
	u.SetNamespace(ns)
	u.SetName(name)
	var mf []metav1.ManagedFieldsEntry
	for _, av := range managed {
		mf = append(mf, metav1.ManagedFieldsEntry{Manager: "m-" + av, Operation: metav1.ManagedFieldsOperationUpdate, APIVersion: av})
	}
	u.SetManagedFields(mf)
	return u
}

type fixture struct {
	ext *extfake.Clientset
	dyn *dynfake.FakeDynamicClient

	mu      sync.Mutex
	updates []*unstructured.Unstructured
	dryRuns int
}

func newFixture(t *testing.T, crd *apiextv1.CustomResourceDefinition, objs ...runtime.Object) *fixture {
	t.Helper()
	lists := map[schema.GroupVersionResource]string{}
	for _, v := range []string{"v1", "v1beta1"} {
		lists[schema.GroupVersionResource{Group: group, Version: v, Resource: "crontabs"}] = "CronTabList"
	}
	f := &fixture{ext: extfake.NewSimpleClientset(crd), dyn: dynfake.NewSimpleDynamicClientWithCustomListKinds(runtime.NewScheme(), lists, objs...)}
	f.dyn.PrependReactor("update", "crontabs", func(a clienttesting.Action) (bool, runtime.Object, error) {
		u := a.(clienttesting.UpdateAction)
		f.mu.Lock()
		defer f.mu.Unlock()
		f.updates = append(f.updates, u.GetObject().(*unstructured.Unstructured).DeepCopy())
		return false, nil, nil
	})
	return f
}

func (f *fixture) stored(t *testing.T) []string {
	t.Helper()
	crd, err := f.ext.ApiextensionsV1().CustomResourceDefinitions().Get(context.Background(), "crontabs."+group, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return crd.Status.StoredVersions
}

func (f *fixture) clients() *clients { return &clients{ext: f.ext, dynamic: f.dyn} }

func TestRunRewritesAndSetsStoredVersions(t *testing.T) {
	f := newFixture(t, testCRD("v1", "v1"),
		obj("a", "one", group+"/v1beta1"), obj("a", "two", group+"/v1"), obj("b", "three"), obj("b", "gone"))
	// one conflict on "two", then it goes through; "gone" is deleted meanwhile.
	conflicted := false
	f.dyn.PrependReactor("update", "crontabs", func(a clienttesting.Action) (bool, runtime.Object, error) {
		u := a.(clienttesting.UpdateAction).GetObject().(*unstructured.Unstructured)
		switch {
		case u.GetName() == "two" && !conflicted:
			conflicted = true
			return true, nil, apierrors.NewConflict(schema.GroupResource{Group: group, Resource: "crontabs"}, "two", errors.New("changed"))
		case u.GetName() == "gone":
			return true, nil, apierrors.NewNotFound(schema.GroupResource{Group: group, Resource: "crontabs"}, "gone")
		}
		return false, nil, nil
	})
	var progress strings.Builder
	res, err := runWith(context.Background(), f.clients(), Options{CRD: "crontabs." + group, Concurrency: 1, Progress: &progress, progressEvery: 2})
	if err != nil {
		t.Fatal(err)
	}
	if res.total != 4 || res.rewritten != 3 || res.skipped != 1 || res.failed != 0 || res.managedDropped != 1 {
		t.Errorf("result %+v", res)
	}
	if !conflicted {
		t.Error("no conflict happened")
	}
	if got := f.stored(t); !slices.Equal(got, []string{"v1"}) || !res.storedUpdated {
		t.Errorf("storedVersions %v, want [v1]", got)
	}
	for _, u := range f.updates {
		if u.GetName() == "one" {
			list, _, _ := unstructured.NestedSlice(u.Object, "metadata", "managedFields")
			if len(list) != 1 || len(list[0].(map[string]any)) != 0 {
				t.Errorf("one was written with managedFields %v, want [{}]", list)
			}
		}
	}
	if want := "rewrote 2/4\nrewrote 4/4\n"; progress.String() != want {
		t.Errorf("progress %q, want %q", progress.String(), want)
	}
	if s := res.Summary(); !strings.Contains(s, "rewrote 3 of 4") || !strings.Contains(s, "skipped 1") || !strings.Contains(s, "-> [v1]") {
		t.Errorf("summary %q", s)
	}
}

func TestRunFailureKeepsStoredVersions(t *testing.T) {
	f := newFixture(t, testCRD("v1", "v1", "v1beta1"), obj("a", "one"), obj("a", "bad"), obj("b", "three"))
	f.dyn.PrependReactor("update", "crontabs", func(a clienttesting.Action) (bool, runtime.Object, error) {
		if a.(clienttesting.UpdateAction).GetObject().(*unstructured.Unstructured).GetName() == "bad" {
			return true, nil, apierrors.NewInternalError(errors.New("boom"))
		}
		return false, nil, nil
	})
	res, err := runWith(context.Background(), f.clients(), Options{CRD: "crontabs." + group, retries: 3, retryBase: time.Millisecond})
	if !errors.Is(err, errFailed) {
		t.Fatalf("error %v, want errFailed", err)
	}
	if res.failed != 1 || res.rewritten != 2 || len(res.failures) != 1 || !strings.Contains(res.failures[0], "a/bad: still failing after 3 attempts, giving up: ") {
		t.Errorf("result %+v", res)
	}
	if got := f.stored(t); !slices.Equal(got, []string{"v1beta1", "v1"}) {
		t.Errorf("storedVersions %v, want unchanged", got)
	}
}

func TestRunDryRun(t *testing.T) {
	f := newFixture(t, testCRD("v1", "v1"), obj("a", "one"), obj("b", "two"))
	f.dyn.PrependReactor("update", "crontabs", func(a clienttesting.Action) (bool, runtime.Object, error) {
		if opts := a.(clienttesting.UpdateActionImpl).UpdateOptions; slices.Equal(opts.DryRun, []string{metav1.DryRunAll}) {
			f.mu.Lock()
			f.dryRuns++
			f.mu.Unlock()
		}
		return false, nil, nil
	})
	res, err := runWith(context.Background(), f.clients(), Options{CRD: "crontabs." + group, DryRun: true})
	if err != nil {
		t.Fatal(err)
	}
	if f.dryRuns != 2 || res.rewritten != 2 {
		t.Errorf("%d dry-run updates, result %+v", f.dryRuns, res)
	}
	if got := f.stored(t); !slices.Equal(got, []string{"v1beta1", "v1"}) {
		t.Errorf("storedVersions %v, want unchanged", got)
	}
	if !strings.Contains(res.Summary(), "would rewrite 2 of 2") {
		t.Errorf("summary %q", res.Summary())
	}
}

func TestRunRefusesWhenConversionFails(t *testing.T) {
	f := newFixture(t, testCRD("v1", "v1", "v1beta1"), obj("a", "one"))
	f.dyn.PrependReactor("get", "crontabs", func(a clienttesting.Action) (bool, runtime.Object, error) {
		if a.GetResource().Version == "v1beta1" {
			return true, nil, apierrors.NewInternalError(errors.New("conversion webhook for example.com/v1 failed: connection refused"))
		}
		return false, nil, nil
	})
	_, err := runWith(context.Background(), f.clients(), Options{CRD: "crontabs." + group})
	if !errors.Is(err, ErrConversion) || !strings.Contains(err.Error(), "nothing was changed") {
		t.Fatalf("error %v, want ErrConversion", err)
	}
	if len(f.updates) != 0 {
		t.Errorf("%d updates after a refusal", len(f.updates))
	}
	if got := f.stored(t); !slices.Equal(got, []string{"v1beta1", "v1"}) {
		t.Errorf("storedVersions %v, want unchanged", got)
	}
}

func TestRunInterrupted(t *testing.T) {
	var objs []runtime.Object
	for _, n := range []string{"a", "b", "c", "d", "e", "f"} {
		objs = append(objs, obj("ns", n))
	}
	f := newFixture(t, testCRD("v1", "v1"), objs...)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ctx = testhook.WithAfterObject(ctx, func(done int) {
		if done == 2 {
			cancel()
		}
	})
	res, err := runWith(ctx, f.clients(), Options{CRD: "crontabs." + group, Concurrency: 1, ChunkSize: 1})
	if !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "run again") {
		t.Fatalf("error %v, want an interruption", err)
	}
	if res.rewritten >= 6 {
		t.Errorf("result %+v: the interruption did not stop it", res)
	}
	if got := f.stored(t); !slices.Equal(got, []string{"v1beta1", "v1"}) {
		t.Errorf("storedVersions %v, want unchanged", got)
	}
	// The second run finishes.
	res, err = runWith(context.Background(), f.clients(), Options{CRD: "crontabs." + group})
	if err != nil || res.rewritten != 6 {
		t.Fatalf("second run: %v, %+v", err, res)
	}
	if got := f.stored(t); !slices.Equal(got, []string{"v1"}) {
		t.Errorf("storedVersions %v, want [v1]", got)
	}
}

func TestRunUsage(t *testing.T) {
	f := newFixture(t, testCRD("v1", "v1"))
	for _, opts := range []Options{{CRD: "nosuch.example.com"}, {}, {CRD: "crontabs." + group, ChunkSize: -1}} {
		if _, err := runWith(context.Background(), f.clients(), opts); !errors.Is(err, ErrUsage) {
			t.Errorf("%+v: error %v, want ErrUsage", opts, err)
		}
	}
}

// TestRunRestartsAnExpiredList expires the continue token after the first
// page: the listing starts over, and every object is written exactly once.
func TestRunRestartsAnExpiredList(t *testing.T) {
	objs := []runtime.Object{obj("a", "one"), obj("a", "two"), obj("b", "three"), obj("b", "four")}
	f := newFixture(t, testCRD("v1", "v1"), objs...)
	calls := 0
	// The fake client drops limit and continue from the recorded action, so
	// the calls are told apart by their order: the webhook check's probe,
	// the first page, the expired next page, the listing started over.
	f.dyn.PrependReactor("list", "crontabs", func(clienttesting.Action) (bool, runtime.Object, error) {
		calls++
		if calls == 1 {
			return false, nil, nil
		}
		list := &unstructured.UnstructuredList{Object: map[string]any{"apiVersion": group + "/v1", "kind": "CronTabList"}}
		switch calls {
		case 2: // the first page
			for _, o := range objs[:2] {
				list.Items = append(list.Items, *o.(*unstructured.Unstructured).DeepCopy())
			}
			list.SetContinue("page-2")
			return true, list, nil
		case 3: // the next page: the snapshot is gone
			return true, nil, apierrors.NewResourceExpired("the continue token has expired")
		default: // started over: everything, one page
			for _, o := range objs {
				list.Items = append(list.Items, *o.(*unstructured.Unstructured).DeepCopy())
			}
			return true, list, nil
		}
	})
	res, err := runWith(context.Background(), f.clients(), Options{CRD: "crontabs." + group, Concurrency: 2, ChunkSize: 2})
	if err != nil {
		t.Fatal(err)
	}
	written := map[string]int{}
	for _, u := range f.updates {
		written[u.GetName()]++
	}
	if res.total != 4 || res.failed != 0 || len(written) != 4 {
		t.Fatalf("result %+v, writes %v", res, written)
	}
	for name, n := range written {
		if n != 1 {
			t.Errorf("%s written %d times", name, n)
		}
	}
	if calls != 4 {
		t.Errorf("%d list calls, want 4 (probe, page, expired, start over)", calls)
	}
	if got := f.stored(t); !slices.Equal(got, []string{"v1"}) {
		t.Errorf("storedVersions %v", got)
	}
}
