package automigrate

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/crdforge/crdforge/webhook/storagemigrate"
)

// staleRecords is how many sync periods a replica's record stays proof of
// what it converts.
const staleRecords = 3

// check migrates the CRD name when its storedVersions hold another version
// than the storage version and every ready replica converts every version.
func (c *controller) check(ctx context.Context, name string) {
	crd, err := c.crdClient.Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		if ctx.Err() == nil {
			c.log.Error("reading the CRD", "crd", name, "error", err)
		}
		return
	}
	p, err := storagemigrate.PlanFor(crd)
	if err != nil {
		c.log.Error("cannot migrate the CRD", "crd", name, "error", err)
		return
	}
	c.metrics.pending(name, p.Needed())
	if !p.Needed() {
		delete(c.failures, name)
		return
	}
	if at := c.retryAt[name]; time.Now().Before(at) {
		return
	}
	if why := c.replicasLack(ctx, crd, p); why != "" {
		if c.waiting[name] != why {
			c.waiting[name] = why
			c.log.Info("storage migration waits", "crd", name, "why", why)
			c.events.emit(ctx, crd, "Normal", "StorageMigrationWaiting", why)
			c.setStatus(ctx, name, storagemigrate.Status{Phase: storagemigrate.PhaseWaiting, Storage: p.Storage, From: p.StoredVersions, Message: why})
		}
		return
	}
	delete(c.waiting, name)
	c.migrate(ctx, crd, p)
}

// replicasLack says why the migration of crd may not start yet; empty when
// every ready endpoint of the Service belongs to a replica that recorded,
// recently, that it converts every version of crd.
func (c *controller) replicasLack(ctx context.Context, crd *unstructured.Unstructured, p *storagemigrate.Plan) string {
	endpoints, unnamed, err := readyEndpoints(ctx, c.dyn.Resource(endpointSliceResource).Namespace(c.namespace), c.service)
	if err != nil {
		return "cannot list the Service's endpoints: " + err.Error()
	}
	records, err := readRecords(ctx, c.configMaps, c.state)
	if err != nil {
		return "cannot read the replicas' records: " + err.Error()
	}
	kind, _, _ := unstructured.NestedString(crd.Object, "spec", "names", "kind")
	var versions []string
	all, _, _ := unstructured.NestedSlice(crd.Object, "spec", "versions")
	for _, v := range all {
		if n, ok := v.(map[string]any)["name"].(string); ok {
			versions = append(versions, n)
		}
	}
	return replicasLacking(endpoints, unnamed, records, p.Resource.Group+"/"+kind, versions, time.Now(), staleRecords*c.syncPeriod)
}

// migrate moves every object of crd to the storage version
// (migrateObjects) and, when none failed, trims its storedVersions; an
// interruption leaves storedVersions alone, and the next elected replica
// starts again.
func (c *controller) migrate(ctx context.Context, crd *unstructured.Unstructured, p *storagemigrate.Plan) {
	name := p.CRD
	status := storagemigrate.Status{Phase: storagemigrate.PhaseRunning, Storage: p.Storage, From: p.StoredVersions}
	c.log.Info("storage migration starts", "crd", name, "storage", p.Storage, "storedVersions", p.StoredVersions)
	c.setStatus(ctx, name, status)
	how, err := c.migrateObjects(ctx, crd, p, &status)
	if ctx.Err() != nil {
		c.log.Info("storage migration interrupted; the next elected replica resumes it", "crd", name, "rewritten", status.Rewritten)
		return
	}
	var after []string
	if err == nil {
		after, _, err = storagemigrate.SetStoredVersions(ctx, c.crdClient, p, c.retrier(), fieldManager)
	}
	if err != nil {
		c.fail(ctx, crd, status, err)
		return
	}
	delete(c.failures, name)
	delete(c.retryAt, name)
	status.Phase, status.Message = storagemigrate.PhaseSucceeded, fmt.Sprintf("objects stored at %s %s; storedVersions %v", p.Storage, how, after)
	c.metrics.run(name, "succeeded")
	c.metrics.pending(name, false)
	c.log.Info("storage migration succeeded", "crd", name, "how", how, "rewritten", status.Rewritten, "storedVersions", after)
	c.events.emit(ctx, crd, "Normal", "StorageMigrationSucceeded", status.Message)
	c.setStatus(ctx, name, status)
}

// migrateObjects moves the objects of crd to the storage version: through
// the cluster's migrator where the API server serves StorageVersionMigrations
// and --migrate-engine allows, else by rewriting each from here. With auto,
// it rewrites them from here too when no migrator takes the migration up,
// or when the cluster's migration fails: no one is there to look into a
// failed StorageVersionMigration (crdforge migrate, run by a person, stops
// and reports it instead), and the rewrites name the object whose
// conversion fails, if one does, and leave storedVersions as they are. how
// says which did.
func (c *controller) migrateObjects(ctx context.Context, crd *unstructured.Unstructured, p *storagemigrate.Plan, status *storagemigrate.Status) (how string, err error) {
	how = "by this webhook's rewrites"
	if c.engine != EngineClient {
		svmGVR, served, err := storagemigrate.SVMResource(ctx, c.dyn)
		switch {
		case err != nil:
			return "", err
		case !served && c.engine == EngineCluster:
			return "", fmt.Errorf("--migrate-engine cluster: the API server serves no %s API", storagemigrate.SVMGroup)
		case served:
			via, err := c.viaMigrator(ctx, crd, p, svmGVR, status)
			switch {
			case c.engine == EngineCluster || err == nil:
				return via, err
			case errors.Is(err, storagemigrate.ErrNoMigrator):
				c.log.Info("no storage version migrator took the migration up: rewriting the objects from here", "crd", p.CRD, "waited", c.migratorWait)
			case errors.Is(err, storagemigrate.ErrMigrationFailed):
				c.log.Info("the cluster's storage version migration failed: rewriting the objects from here", "crd", p.CRD, "error", err)
				c.events.emit(ctx, crd, "Warning", "StorageMigrationFallback", fmt.Sprintf("%v; rewriting the objects from this webhook instead", err))
				how += " (after the cluster's migration failed)"
			default:
				return via, err
			}
		}
	}
	c.events.emit(ctx, crd, "Normal", "StorageMigrationStarted", fmt.Sprintf("rewriting the objects at %s (storedVersions %v)", p.Storage, p.StoredVersions))
	return how, c.rewriteAll(ctx, p, status, false)
}

// viaMigrator migrates through a StorageVersionMigration (one of the
// resource's that has not finished, or a new one), then drops the
// managedFields of versions no longer served, which the migrator leaves.
// A migration it created that no migrator took up is deleted: left
// behind, it would run whenever one comes up.
func (c *controller) viaMigrator(ctx context.Context, crd *unstructured.Unstructured, p *storagemigrate.Plan, svmGVR schema.GroupVersionResource, status *storagemigrate.Status) (string, error) {
	m := &storagemigrate.ClusterMigration{SVMs: c.dyn.Resource(svmGVR), Resource: p.Resource, MigratorWait: c.migratorWait, Retrier: c.retrier()}
	svm, err := m.Pending(ctx)
	if err != nil {
		return "", err
	}
	created := svm == nil
	if created {
		manifest := storagemigrate.SVMManifest(svmGVR, p.Resource, "", fieldManager)
		if svm, err = m.SVMs.Create(ctx, &unstructured.Unstructured{Object: manifest}, metav1.CreateOptions{FieldManager: fieldManager}); err != nil {
			return "", fmt.Errorf("creating a %s StorageVersionMigration for %s: %w", svmGVR.GroupVersion(), p.Resource.GroupResource(), err)
		}
	}
	how := fmt.Sprintf("by the cluster's migrator (StorageVersionMigration %s)", svm.GetName())
	c.events.emit(ctx, crd, "Normal", "StorageMigrationStarted", fmt.Sprintf("migrating the objects to %s %s (storedVersions %v)", p.Storage, how, p.StoredVersions))
	err = m.Follow(ctx, svm.GetName())
	if errors.Is(err, storagemigrate.ErrNoMigrator) && created {
		if derr := m.SVMs.Delete(context.WithoutCancel(ctx), svm.GetName(), metav1.DeleteOptions{}); derr != nil && !apierrors.IsNotFound(derr) {
			c.log.Error("deleting the StorageVersionMigration no migrator took up", "name", svm.GetName(), "error", derr)
		}
	}
	if err != nil {
		return how, err
	}
	return how, c.rewriteAll(ctx, p, status, true)
}

// rewriteAll writes every object of p back (only those with managedFields
// of unserved versions to drop, with pruneOnly), counting them in status;
// an error when the listing failed or any object could not be written.
func (c *controller) rewriteAll(ctx context.Context, p *storagemigrate.Plan, status *storagemigrate.Status, pruneOnly bool) error {
	var mu sync.Mutex
	var failures []string
	pass := &storagemigrate.Pass{
		Objects: c.dyn.Resource(p.Resource), ServedAPI: p.ServedAPI, ChunkSize: 500, Concurrency: c.concurrency, PruneOnly: pruneOnly,
		Retrier: c.retrier(), FieldManager: fieldManager,
		Done: func(obj *unstructured.Unstructured, o storagemigrate.Outcome, _ int, err error) {
			c.metrics.object(p.CRD, o)
			mu.Lock()
			defer mu.Unlock()
			switch o {
			case storagemigrate.Failed:
				status.Failed++
				if len(failures) < 3 {
					failures = append(failures, obj.GetNamespace()+"/"+obj.GetName()+": "+err.Error())
				}
			case storagemigrate.Written, storagemigrate.Unchanged:
				status.Rewritten++
			}
		},
	}
	if err := pass.Run(ctx); err != nil {
		return err
	}
	if status.Failed > 0 {
		return fmt.Errorf("%d object(s) could not be rewritten, such as %v", status.Failed, failures)
	}
	return nil
}

// retrier is every request's retry policy.
func (c *controller) retrier() storagemigrate.Retrier {
	return storagemigrate.Retrier{Attempts: 8, Base: 250 * time.Millisecond}
}

// fail reports a failed run, storedVersions untouched, and puts the next
// one off: retryBackoff, doubled with each failure in a row.
func (c *controller) fail(ctx context.Context, crd *unstructured.Unstructured, status storagemigrate.Status, err error) {
	name := crd.GetName()
	n := c.failures[name]
	c.failures[name] = n + 1
	wait := c.retryBackoff << min(n, 5)
	c.retryAt[name] = time.Now().Add(wait)
	status.Phase = storagemigrate.PhaseFailed
	status.Message = fmt.Sprintf("%v; status.storedVersions left at %v; tried again in %s", err, status.From, wait)
	if errors.Is(err, storagemigrate.ErrCRDChanged) {
		c.retryAt[name] = time.Time{} // the CRD changed: start again from it at once
	}
	c.metrics.run(name, "failed")
	c.log.Error("storage migration failed", "crd", name, "error", err, "retryIn", wait)
	c.events.emit(ctx, crd, "Warning", "StorageMigrationFailed", status.Message)
	c.setStatus(ctx, name, status)
}
