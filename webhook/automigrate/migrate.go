package automigrate

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

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

// migrate rewrites every object of crd and, when none failed, trims its
// storedVersions; an interruption leaves storedVersions alone, and the
// next elected replica starts again.
func (c *controller) migrate(ctx context.Context, crd *unstructured.Unstructured, p *storagemigrate.Plan) {
	name := p.CRD
	status := storagemigrate.Status{Phase: storagemigrate.PhaseRunning, Storage: p.Storage, From: p.StoredVersions}
	c.log.Info("storage migration starts", "crd", name, "storage", p.Storage, "storedVersions", p.StoredVersions)
	c.events.emit(ctx, crd, "Normal", "StorageMigrationStarted", fmt.Sprintf("rewriting the objects at %s (storedVersions %v)", p.Storage, p.StoredVersions))
	c.setStatus(ctx, name, status)
	var mu sync.Mutex
	var failures []string
	pass := &storagemigrate.Pass{
		Objects: c.dyn.Resource(p.Resource), ServedAPI: p.ServedAPI, ChunkSize: 500, Concurrency: c.concurrency,
		Retrier: storagemigrate.Retrier{Attempts: 8, Base: 250 * time.Millisecond}, FieldManager: fieldManager,
		Done: func(obj *unstructured.Unstructured, o storagemigrate.Outcome, _ int, err error) {
			c.metrics.object(name, o)
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
	err := pass.Run(ctx)
	if ctx.Err() != nil {
		c.log.Info("storage migration interrupted; the next elected replica resumes it", "crd", name, "rewritten", status.Rewritten)
		return
	}
	if err == nil && status.Failed > 0 {
		err = fmt.Errorf("%d object(s) could not be rewritten, such as %v", status.Failed, failures)
	}
	var after []string
	if err == nil {
		after, _, err = storagemigrate.SetStoredVersions(ctx, c.crdClient, p, pass.Retrier, fieldManager)
	}
	if err != nil {
		c.fail(ctx, crd, status, err)
		return
	}
	delete(c.failures, name)
	delete(c.retryAt, name)
	status.Phase, status.Message = storagemigrate.PhaseSucceeded, fmt.Sprintf("%d object(s) stored at %s; storedVersions %v", status.Rewritten, p.Storage, after)
	c.metrics.run(name, "succeeded")
	c.metrics.pending(name, false)
	c.log.Info("storage migration succeeded", "crd", name, "rewritten", status.Rewritten, "storedVersions", after)
	c.events.emit(ctx, crd, "Normal", "StorageMigrationSucceeded", status.Message)
	c.setStatus(ctx, name, status)
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
