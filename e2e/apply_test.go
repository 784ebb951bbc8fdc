package e2e

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
)

// testServerSideApply: field managers apply partial configurations of one
// Widget at different versions, as Flux and Argo CD write objects. The API
// server tracks each manager's fields at its version and converts partial
// objects through the webhook to compare them (kubernetes#117356,
// #117260): a conflict is found across versions, a field dropped from its
// only manager's configuration is removed, every version reads back what
// its managers applied, and no version shows its own stash.
func testServerSideApply(t *testing.T, e *Example) {
	ctx := context.Background()
	const name = "applied"
	apply := func(manager, version string, spec map[string]any) error {
		t.Helper()
		obj := map[string]any{"apiVersion": e.Group + "/" + version, "kind": e.Kind,
			"metadata": map[string]any{"name": name, "namespace": ns}, "spec": spec}
		data, err := json.Marshal(obj)
		if err != nil {
			t.Fatal(err)
		}
		_, err = cluster.Dynamic.Resource(e.Resource(version)).Namespace(ns).Patch(ctx, name, types.ApplyPatchType, data,
			metav1.PatchOptions{FieldManager: manager})
		return err
	}
	mustApply := func(manager, version string, spec map[string]any) {
		t.Helper()
		if err := apply(manager, version, spec); err != nil {
			t.Fatalf("%s applying at %s: %v", manager, version, err)
		}
	}

	mustApply("alpha", "v1alpha1", map[string]any{"title": "T", "replicas": int64(2), "host": "h", "port": int64(80), "legacyID": "L-1"})
	mustApply("one", "v1", map[string]any{"warranty": map[string]any{"years": int64(3)}})

	// title at v1alpha1 is displayName at v1beta1: alpha's.
	err := apply("beta", "v1beta1", map[string]any{"displayName": "B"})
	if !apierrors.IsConflict(err) || !strings.Contains(err.Error(), `conflict with "alpha"`) {
		t.Errorf("beta applying alpha's displayName at v1beta1: %v, want a conflict with alpha", err)
	}
	atV1 := getDynamic(t, e, "v1", name)
	check(t, name+" at v1", atV1, fields{
		"spec.displayName": "T", "spec.network": map[string]any{"host": "h", "port": 80}, "spec.replicas": 2, "spec.warranty.years": 3,
	})
	noOwnStash(t, atV1, "v1")
	if !strings.Contains(annotationOf(t, atV1, "conversion.crdforge.io/v1alpha1"), `"legacyID":"L-1"`) {
		t.Errorf("at v1, the v1alpha1 stash does not hold legacyID")
	}

	// alpha drops legacyID, a field only it manages: gone, stash and all.
	mustApply("alpha", "v1alpha1", map[string]any{"title": "T", "replicas": int64(2), "host": "h", "port": int64(80)})
	for version, want := range map[string]fields{
		"v1alpha1": {"spec.title": "T", "spec.replicas": 2, "spec.host": "h", "spec.port": 80, "spec.legacyID": absent},
		"v1beta1":  {"spec.displayName": "T", "spec.network": map[string]any{"host": "h", "port": 80}, "spec.replicas": 2},
	} {
		obj := getDynamic(t, e, version, name)
		check(t, name+" at "+version, obj, want)
		noOwnStash(t, obj, version)
	}
	check(t, name+" at v1", getDynamic(t, e, "v1", name), fields{
		"spec.displayName": "T", "spec.warranty.years": 3, "metadata.annotations": absent,
	})

	// Each manager's fields are recorded at its own version.
	managers := map[string]string{}
	for _, m := range getDynamic(t, e, "v1", name)["metadata"].(map[string]any)["managedFields"].([]any) {
		m := m.(map[string]any)
		managers[m["manager"].(string)] = m["apiVersion"].(string)
	}
	for manager, version := range map[string]string{"alpha": "v1alpha1", "one": "v1"} {
		if managers[manager] != e.Group+"/"+version {
			t.Errorf("managedFields: %s at %q, want %s/%s (all: %v)", manager, managers[manager], e.Group, version, managers)
		}
	}
}

// noOwnStash fails the test if obj, read at version, shows the stash of
// that version: what it holds is in the object itself.
func noOwnStash(t *testing.T, obj map[string]any, version string) {
	t.Helper()
	if v, ok := annotation(obj, "conversion.crdforge.io/"+version); ok {
		t.Errorf("read at %s, the object shows its own stash: %s", version, v)
	}
}

// annotationOf is obj's annotation key, failing the test without one.
func annotationOf(t *testing.T, obj map[string]any, key string) string {
	t.Helper()
	v, ok := annotation(obj, key)
	if !ok {
		t.Errorf("no annotation %s: %s", key, norm(obj["metadata"]))
	}
	return v
}
