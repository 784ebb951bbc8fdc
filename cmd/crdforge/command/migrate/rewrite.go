package migrate

import (
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/crdforge/crdforge/webhook/storagemigrate"
)

// outcome is what became of one object (storagemigrate's).
type outcome = storagemigrate.Outcome

const (
	written   = storagemigrate.Written
	unchanged = storagemigrate.Unchanged // written, but already at the storage version: no new resourceVersion
	skipped   = storagemigrate.Skipped   // deleted meanwhile
	failed    = storagemigrate.Failed
)

// maxFailures bounds the failures a Result lists; it counts them all.
const maxFailures = 10

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
