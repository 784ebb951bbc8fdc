package storagemigrate

import (
	"context"
	"errors"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	dynfake "k8s.io/client-go/dynamic/fake"
	clienttesting "k8s.io/client-go/testing"
)

func svmGVR(v string) schema.GroupVersionResource {
	return schema.GroupVersionResource{Group: SVMGroup, Version: v, Resource: "storageversionmigrations"}
}

// fakeSVMs is a dynamic client whose API server serves the
// StorageVersionMigration versions served (a list of another is 404), and
// holds objs.
func fakeSVMs(served []string, objs ...runtime.Object) *dynfake.FakeDynamicClient {
	kinds := map[schema.GroupVersionResource]string{}
	for _, v := range SVMVersions {
		kinds[svmGVR(v)] = "StorageVersionMigrationList"
	}
	dyn := dynfake.NewSimpleDynamicClientWithCustomListKinds(runtime.NewScheme(), kinds, objs...)
	dyn.PrependReactor("list", "storageversionmigrations", func(a clienttesting.Action) (bool, runtime.Object, error) {
		for _, v := range served {
			if a.GetResource().Version == v {
				return false, nil, nil
			}
		}
		return true, nil, apierrors.NewNotFound(a.GetResource().GroupResource(), "")
	})
	return dyn
}

// The version of the StorageVersionMigration API found is the newest the
// API server serves; none when it serves none.
func TestSVMResource(t *testing.T) {
	for _, c := range []struct {
		served []string
		want   string
	}{{[]string{"v1alpha1", "v1"}, "v1"}, {[]string{"v1beta1"}, "v1beta1"}, {[]string{"v1alpha1"}, "v1alpha1"}, {nil, ""}} {
		gvr, ok, err := SVMResource(context.Background(), fakeSVMs(c.served))
		if err != nil || ok != (c.want != "") || gvr.Version != c.want {
			t.Errorf("serving %v: %v %v %v, want %q", c.served, gvr, ok, err, c.want)
		}
	}
}

// svm is a StorageVersionMigration of widgets.example.com with status.
func svm(name string, status map[string]any) *unstructured.Unstructured {
	u := &unstructured.Unstructured{Object: SVMManifest(svmGVR("v1"), schema.GroupVersionResource{Group: "example.com", Version: "v2", Resource: "widgets"}, name, "test")}
	if status != nil {
		u.Object["status"] = status
	}
	return u
}

func conditions(kind, reason, message string) map[string]any {
	return map[string]any{"conditions": []any{map[string]any{"type": kind, "status": "True", "reason": reason, "message": message}}}
}

// Follow ends as the migration does, and tells an untaken migration (no
// migrator) from one a migrator took up and has yet to run.
func TestFollow(t *testing.T) {
	for _, c := range []struct {
		name   string
		status map[string]any
		want   error
	}{
		{"succeeded", conditions("Succeeded", "", ""), nil},
		{"failed", conditions("Failed", "Boom", "the webhook refused"), ErrMigrationFailed},
		{"untaken", nil, ErrNoMigrator},
		{"taken, waiting", map[string]any{"resourceVersion": "42"}, ErrUnfinished},
	} {
		t.Run(c.name, func(t *testing.T) {
			dyn := fakeSVMs([]string{"v1"}, svm("m", c.status))
			m := &ClusterMigration{SVMs: dyn.Resource(svmGVR("v1")), Resource: schema.GroupVersionResource{Group: "example.com", Resource: "widgets"},
				MigratorWait: 20 * time.Millisecond, Timeout: 100 * time.Millisecond, Poll: time.Millisecond}
			if err := m.Follow(context.Background(), "m"); !errors.Is(err, c.want) || (c.want == nil) != (err == nil) {
				t.Errorf("Follow: %v, want %v", err, c.want)
			}
		})
	}
}

// Pending finds the resource's migration that has not finished, and no
// other resource's, nor a finished one.
func TestPending(t *testing.T) {
	other := svm("other", nil)
	other.Object["spec"].(map[string]any)["resource"].(map[string]any)["resource"] = "gadgets"
	dyn := fakeSVMs([]string{"v1"}, svm("done", conditions("Succeeded", "", "")), other, svm("running", map[string]any{"resourceVersion": "7"}))
	m := &ClusterMigration{SVMs: dyn.Resource(svmGVR("v1")), Resource: schema.GroupVersionResource{Group: "example.com", Resource: "widgets"}}
	got, err := m.Pending(context.Background())
	if err != nil || got == nil || got.GetName() != "running" {
		t.Errorf("Pending: %v %v, want running", got, err)
	}
}
