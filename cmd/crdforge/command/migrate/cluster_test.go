package migrate

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/version"
	discoveryfake "k8s.io/client-go/discovery/fake"
	dynfake "k8s.io/client-go/dynamic/fake"
	clienttesting "k8s.io/client-go/testing"
)

// The migrator's Running messages, as kube-controller-manager v1.37.2
// writes them (pkg/controller/storageversionmigrator/util.go).
func TestMigratedCounts(t *testing.T) {
	for _, c := range []struct {
		msg         string
		done, total int
		ok          bool
	}{
		{"The migration is running", 0, 0, false},
		{"The migration is running, 3/10 objects not yet migrated", 7, 10, true},
		{"The migration is running, 10 objects verified migrated", 10, 10, true},
		{"The migration is running, 9/9 objects not yet migrated; transient error: boom", 0, 9, true},
	} {
		done, total, ok := migratedCounts(c.msg)
		if done != c.done || total != c.total || ok != c.ok {
			t.Errorf("%q: %d/%d %v, want %d/%d %v", c.msg, done, total, ok, c.done, c.total, c.ok)
		}
	}
}

func TestSVMManifest(t *testing.T) {
	res := schema.GroupVersionResource{Group: "example.com", Version: "v1", Resource: "crontabs"}
	m := svmManifest(schema.GroupVersionResource{Group: svmGroup, Version: "v1", Resource: "storageversionmigrations"}, res, "")
	spec := m["spec"].(map[string]any)["resource"].(map[string]any)
	if m["apiVersion"] != "storagemigration.k8s.io/v1" || spec["group"] != "example.com" || spec["resource"] != "crontabs" || spec["version"] != nil {
		t.Errorf("v1 manifest %v", m)
	}
	if gn := m["metadata"].(map[string]any)["generateName"]; gn != "crontabs.example.com-" {
		t.Errorf("generateName %v: each run needs a new object", gn)
	}
	m = svmManifest(schema.GroupVersionResource{Group: svmGroup, Version: "v1alpha1", Resource: "storageversionmigrations"}, res, "crontabs.example.com-v1")
	if v := m["spec"].(map[string]any)["resource"].(map[string]any)["version"]; v != "v1" || m["metadata"].(map[string]any)["name"] != "crontabs.example.com-v1" {
		t.Errorf("v1alpha1 manifest %v: wants the version and the given name", m)
	}
}

func TestMigratorSetsStoredVersionsFrom136(t *testing.T) {
	for v, want := range map[string]bool{"1.35": false, "1.36": true, "1.37+": true, "2.0": true, "1.30": false} {
		major, minor, _ := strings.Cut(v, ".")
		disc := &discoveryfake.FakeDiscovery{Fake: &clienttesting.Fake{}, FakedServerVersion: &version.Info{Major: major, Minor: minor}}
		if got := migratorSetsStoredVersions(&clients{discovery: disc}); got != want {
			t.Errorf("Kubernetes %s: %v, want %v", v, got, want)
		}
	}
}

// TestFollowRetriesTransientReads: a StorageVersionMigration followed
// through an API server that throttles and restarts is followed to its
// end; one that stays down ends the run, saying how often it was read.
func TestFollowRetriesTransientReads(t *testing.T) {
	svmGVR := schema.GroupVersionResource{Group: svmGroup, Version: "v1", Resource: "storageversionmigrations"}
	svm := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "storagemigration.k8s.io/v1", "kind": "StorageVersionMigration",
		"metadata": map[string]any{"name": "m"},
		"status":   map[string]any{"conditions": []any{map[string]any{"type": "Succeeded", "status": "True"}}},
	}}
	for _, c := range []struct {
		name    string
		fails   int
		wantErr string
	}{
		{"two failures", 2, ""},
		{"down for good", 100, "still failing after 3 attempts, giving up: Too many requests: throttled"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dyn := dynfake.NewSimpleDynamicClientWithCustomListKinds(runtime.NewScheme(),
				map[schema.GroupVersionResource]string{svmGVR: "StorageVersionMigrationList"}, svm.DeepCopy())
			reads := 0
			dyn.PrependReactor("get", "storageversionmigrations", func(clienttesting.Action) (bool, runtime.Object, error) {
				reads++
				if reads <= c.fails {
					if reads%2 == 1 {
						return true, nil, apierrors.NewTooManyRequestsError("throttled")
					}
					return true, nil, apierrors.NewServiceUnavailable("down")
				}
				return false, nil, nil
			})
			opts, err := Options{CRD: "x", retries: 3, retryBase: time.Millisecond}.withDefaults()
			if err != nil {
				t.Fatal(err)
			}
			r := &clusterRun{opts: opts, plan: &plan{}, res: &Result{}, svms: dyn.Resource(svmGVR), svmGVR: svmGVR}
			err = r.follow(context.Background(), "m")
			switch {
			case c.wantErr == "" && (err != nil || r.res.svmOutcome != "Succeeded"):
				t.Errorf("%v, outcome %q; want Succeeded", err, r.res.svmOutcome)
			case c.wantErr != "" && (err == nil || !strings.Contains(err.Error(), c.wantErr)):
				t.Errorf("error %v, want %q", err, c.wantErr)
			}
		})
	}
}

// A migration whose status has a resource version but no conditions has a
// migrator: Kubernetes 1.31's (v1alpha1) gives it one at once, then waits
// for its garbage collector's cache of the resource before it sets any
// condition. crdforge must go on waiting for it, not report that no
// migrator runs (nor, under auto, delete it and rewrite from the client).
func TestFollowWaitsForAMigratorThatTookTheMigrationUp(t *testing.T) {
	svmGVR := schema.GroupVersionResource{Group: svmGroup, Version: "v1alpha1", Resource: "storageversionmigrations"}
	resource := schema.GroupVersionResource{Group: group, Version: "v1", Resource: "crontabs"}
	svm := &unstructured.Unstructured{Object: svmManifest(svmGVR, resource, "crontabs.example.com-v1")}
	if err := unstructured.SetNestedField(svm.Object, "4242", "status", "resourceVersion"); err != nil {
		t.Fatal(err)
	}
	dyn := dynfake.NewSimpleDynamicClientWithCustomListKinds(runtime.NewScheme(),
		map[schema.GroupVersionResource]string{svmGVR: "StorageVersionMigrationList"}, svm)
	opts := Options{migratorWait: 10 * time.Millisecond, Timeout: 600 * time.Millisecond}
	r := &clusterRun{opts: opts, plan: &plan{resource: resource}, res: &Result{}, svms: dyn.Resource(svmGVR), svmGVR: svmGVR}
	err := r.follow(context.Background(), svm.GetName())
	if errors.Is(err, errNoMigrator) {
		t.Fatalf("a migration the migrator took up reported as untaken: %v", err)
	}
	if err == nil || !strings.Contains(err.Error(), "resource version 4242") || !strings.Contains(err.Error(), "garbage collector") {
		t.Errorf("after --timeout: %v; want what the migrator waits for", err)
	}
}
