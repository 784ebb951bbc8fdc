package storagemigrate

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
)

// The cluster's migrator: a StorageVersionMigration (KEP-4192), which
// kube-controller-manager's storage version migrator carries out where the
// API server serves storagemigration.k8s.io. It rewrites the objects in the
// cluster, without this process listing them; what it leaves undone is a
// Pass with PruneOnly, and storedVersions where it does not set them.

// SVMGroup is the group of the StorageVersionMigration API.
const SVMGroup = "storagemigration.k8s.io"

// SVMVersions are the versions of the StorageVersionMigration API spoken
// here, preferred first: v1 (Kubernetes 1.37), v1beta1 (1.35, 1.36),
// v1alpha1 (1.30 to 1.34, served only where its feature gate and runtime
// config are on).
var SVMVersions = []string{"v1", "v1beta1", "v1alpha1"}

var (
	// ErrNoMigrator says that the API server serves StorageVersionMigrations
	// but no controller took one up within ClusterMigration.MigratorWait:
	// kube-controller-manager does not run the storage version migrator.
	ErrNoMigrator = errors.New("no storage version migrator took the migration up")
	// ErrMigrationFailed marks a StorageVersionMigration that reported
	// Failed, or that was deleted before it finished.
	ErrMigrationFailed = errors.New("the cluster's storage version migration failed")
	// ErrUnfinished marks a migration that has not finished within
	// ClusterMigration.Timeout: it goes on in the cluster.
	ErrUnfinished = errors.New("the cluster's storage version migration has not finished")
)

// SVMResource finds the preferred StorageVersionMigration version the API
// server serves, by listing at most one of each (a version not served is
// 404): the dynamic client alone, no discovery client. ok is false when it
// serves none.
func SVMResource(ctx context.Context, dyn dynamic.Interface) (gvr schema.GroupVersionResource, ok bool, err error) {
	for _, v := range SVMVersions {
		gvr = schema.GroupVersionResource{Group: SVMGroup, Version: v, Resource: "storageversionmigrations"}
		_, err := dyn.Resource(gvr).List(ctx, metav1.ListOptions{Limit: 1})
		switch {
		case err == nil:
			return gvr, true, nil
		case apierrors.IsNotFound(err):
			continue
		default:
			return gvr, false, fmt.Errorf("asking whether the API server serves %s: %w", gvr.GroupVersion(), err)
		}
	}
	return schema.GroupVersionResource{}, false, nil
}

// SVMManifest is the StorageVersionMigration that migrates resource (group
// and plural) at apiVersion svmGVR. name, if set, is its name; else
// generateName makes a new one each time: the migrator never runs a
// migration object again once it succeeded or failed, so each attempt is a
// new object. v1alpha1 names the version as well.
func SVMManifest(svmGVR, resource schema.GroupVersionResource, name, managedBy string) map[string]any {
	meta := map[string]any{"labels": map[string]any{"app.kubernetes.io/managed-by": managedBy}}
	if name != "" {
		meta["name"] = name
	} else {
		meta["generateName"] = resource.Resource + "." + resource.Group + "-"
	}
	res := map[string]any{"group": resource.Group, "resource": resource.Resource}
	if svmGVR.Version == "v1alpha1" {
		res["version"] = resource.Version
	}
	return map[string]any{
		"apiVersion": svmGVR.GroupVersion().String(),
		"kind":       "StorageVersionMigration",
		"metadata":   meta,
		"spec":       map[string]any{"resource": res},
	}
}

// ClusterMigration is one migration of Resource through the cluster's
// migrator.
type ClusterMigration struct {
	// SVMs are the StorageVersionMigrations at the version SVMResource found.
	SVMs     dynamic.NamespaceableResourceInterface
	Resource schema.GroupVersionResource
	// MigratorWait is how long a migration may stay untaken (no condition,
	// no status.resourceVersion) before Follow gives up with ErrNoMigrator.
	MigratorWait time.Duration
	// Timeout, if set, ends Follow with ErrUnfinished.
	Timeout time.Duration
	// Poll is the time between reads (default 250ms).
	Poll    time.Duration
	Retrier Retrier
	// Observe, if set, is called with each read of the migration.
	Observe func(*unstructured.Unstructured)
}

// Pending returns a StorageVersionMigration of the resource that has not
// finished, if any: the migrator runs one per resource at a time, so a
// second one would only queue behind it.
func (m *ClusterMigration) Pending(ctx context.Context) (*unstructured.Unstructured, error) {
	list, err := m.SVMs.List(ctx, metav1.ListOptions{})
	if err != nil {
		return nil, fmt.Errorf("listing StorageVersionMigrations: %w", err)
	}
	for i := range list.Items {
		it := &list.Items[i]
		g, _, _ := unstructured.NestedString(it.Object, "spec", "resource", "group")
		res, _, _ := unstructured.NestedString(it.Object, "spec", "resource", "resource")
		if g != m.Resource.Group || res != m.Resource.Resource {
			continue
		}
		if c := ConditionsOf(it); !c.IsTrue("Succeeded") && !c.IsTrue("Failed") {
			return it, nil
		}
	}
	return nil, nil
}

// Follow polls the migration name until it ends: nil once it Succeeded,
// else an error wrapping ErrMigrationFailed, ErrNoMigrator, ErrUnfinished
// or a read that failed after the retrier's attempts. A read that fails
// transiently is tried again.
func (m *ClusterMigration) Follow(ctx context.Context, name string) error {
	start := time.Now()
	poll := m.Poll
	if poll <= 0 {
		poll = 250 * time.Millisecond
	}
	attempt := 1 // of the read, counted again after each that succeeds
	for {
		obj, err := m.SVMs.Get(ctx, name, metav1.GetOptions{})
		switch {
		case apierrors.IsNotFound(err):
			return fmt.Errorf("%w: StorageVersionMigration %s was deleted before it finished", ErrMigrationFailed, name)
		case err != nil && m.Retrier.Again(ctx, attempt, err):
			attempt++
			continue
		case err != nil:
			return fmt.Errorf("reading StorageVersionMigration %s: %w", name, m.Retrier.GaveUp(attempt, err))
		}
		attempt = 1
		if m.Observe != nil {
			m.Observe(obj)
		}
		conds := ConditionsOf(obj)
		if conds.IsTrue("Succeeded") {
			return nil
		}
		if c := conds.Get("Failed"); c.Status == "True" {
			return fmt.Errorf("%w: StorageVersionMigration %s: %s: %s", ErrMigrationFailed, name, c.Reason, c.Message)
		}
		if len(conds) == 0 && TakenAt(obj) == "" && time.Since(start) > m.MigratorWait {
			return fmt.Errorf("%w within %s", ErrNoMigrator, m.MigratorWait)
		}
		if m.Timeout > 0 && time.Since(start) > m.Timeout {
			return fmt.Errorf("%w: StorageVersionMigration %s, within %s", ErrUnfinished, name, m.Timeout)
		}
		if err := SleepCtx(ctx, poll); err != nil {
			return err
		}
	}
}

// TakenAt is the resource version the migrator's first step gives a
// migration it took up (status.resourceVersion), or "". Its conditions come
// only later, once its garbage collector's cache of the resource has
// reached that version: on a resource nobody writes, a minute or more
// (the API server's next watch bookmark), longer still while the garbage
// collector has yet to watch a new CRD's resource. So a migration without
// conditions but with a resource version has a migrator, which is waiting.
func TakenAt(svm *unstructured.Unstructured) string {
	rv, _, _ := unstructured.NestedString(svm.Object, "status", "resourceVersion")
	return rv
}

// Condition is one entry of a StorageVersionMigration's status.conditions.
type Condition struct{ Type, Status, Reason, Message string }

// Conditions are a StorageVersionMigration's status.conditions.
type Conditions []Condition

// ConditionsOf reads u's status.conditions.
func ConditionsOf(u *unstructured.Unstructured) Conditions {
	list, _, _ := unstructured.NestedSlice(u.Object, "status", "conditions")
	var out Conditions
	for _, e := range list {
		m, _ := e.(map[string]any)
		str := func(k string) string { s, _ := m[k].(string); return s }
		out = append(out, Condition{str("type"), str("status"), str("reason"), str("message")})
	}
	return out
}

// Get returns the condition of type t, or a zero one.
func (cs Conditions) Get(t string) Condition {
	if i := slices.IndexFunc(cs, func(c Condition) bool { return c.Type == t }); i >= 0 {
		return cs[i]
	}
	return Condition{}
}

// IsTrue reports whether the condition of type t is True.
func (cs Conditions) IsTrue(t string) bool { return cs.Get(t).Status == "True" }
