package migrate

import (
	"context"
	"fmt"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// outcome is what became of one object.
type outcome int

const (
	written   outcome = iota
	unchanged         // written, but already at the storage version: no new resourceVersion
	skipped           // deleted meanwhile
	failed
)

// maxFailures bounds the failures a Result lists; it counts them all.
const maxFailures = 10

// rewrite writes obj back at the storage version, re-reading it on
// conflicts, and returns what happened and how many managedFields entries
// the write dropped.
func (m *migration) rewrite(ctx context.Context, obj *unstructured.Unstructured) (outcome, int, error) {
	ri := m.ri.Namespace(obj.GetNamespace())
	opts := metav1.UpdateOptions{FieldManager: fieldManager}
	if m.opts.DryRun {
		opts.DryRun = []string{metav1.DryRunAll}
	}
	var lastErr error
	for attempt := 0; attempt < m.opts.retries; attempt++ {
		if attempt > 0 {
			cur, err := ri.Get(ctx, obj.GetName(), metav1.GetOptions{})
			if apierrors.IsNotFound(err) {
				return skipped, 0, nil
			}
			if err != nil {
				return failed, 0, err
			}
			obj = cur
		}
		rv := obj.GetResourceVersion()
		w := obj.DeepCopy()
		dropped := pruneManagedFields(w, m.plan.servedAPI)
		if m.pruneOnly && dropped == 0 {
			return unchanged, 0, nil
		}
		got, err := ri.Update(ctx, w, opts)
		switch {
		case err == nil:
			if !m.opts.DryRun && got.GetResourceVersion() == rv {
				return unchanged, dropped, nil
			}
			return written, dropped, nil
		case apierrors.IsNotFound(err):
			return skipped, 0, nil
		case apierrors.IsConflict(err):
			lastErr = err
			continue
		default:
			return failed, 0, err
		}
	}
	return failed, 0, fmt.Errorf("%d conflicts, giving up: %w", m.opts.retries, lastErr)
}

// record counts obj's outcome, reports progress, and calls the test hook.
func (m *migration) record(obj *unstructured.Unstructured, o outcome, dropped int, err error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.res.count(obj, o, dropped, err)
	m.done++
	m.progressLocked(false)
	if m.afterObject != nil {
		m.afterObject(m.done)
	}
}

// count adds one object's outcome to r.
func (r *Result) count(obj *unstructured.Unstructured, o outcome, dropped int, err error) {
	switch o {
	case written:
		r.rewritten++
	case unchanged:
		r.rewritten++
		r.unchanged++
	case skipped:
		r.skipped++
	case failed:
		r.failed++
		if len(r.failures) < maxFailures {
			r.failures = append(r.failures, key(obj)+": "+err.Error())
		}
	}
	r.managedDropped += dropped
}
