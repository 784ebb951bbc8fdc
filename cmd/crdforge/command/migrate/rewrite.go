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
// conflicts and trying again after transient errors, and returns what
// happened and how many managedFields entries the write dropped. A write
// that failed transiently may have gone through: tried again with the old
// resourceVersion it conflicts, and the object is read again.
func (m *migration) rewrite(ctx context.Context, obj *unstructured.Unstructured) (outcome, int, error) {
	ri := m.ri.Namespace(obj.GetNamespace())
	opts := metav1.UpdateOptions{FieldManager: fieldManager}
	if m.opts.DryRun {
		opts.DryRun = []string{metav1.DryRunAll}
	}
	r := m.opts.retrier()
	reread := false
	for attempt := 1; ; attempt++ {
		if reread {
			cur, err := ri.Get(ctx, obj.GetName(), metav1.GetOptions{})
			switch {
			case apierrors.IsNotFound(err):
				return skipped, 0, nil
			case err != nil && r.again(ctx, attempt, err):
				continue
			case err != nil:
				return failed, 0, r.gaveUp(attempt, err)
			}
			obj, reread = cur, false
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
		case apierrors.IsConflict(err) && attempt < r.attempts:
			reread = true
		case apierrors.IsConflict(err):
			return failed, 0, fmt.Errorf("still conflicting after %d attempts, giving up: %w", attempt, err)
		case !r.again(ctx, attempt, err):
			return failed, 0, r.gaveUp(attempt, err)
		}
	}
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
