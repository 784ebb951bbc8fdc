package migrate

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"k8s.io/client-go/dynamic"

	"github.com/crdforge/crdforge/webhook/storagemigrate"
)

// migration is one run's rewriting: a lister feeding opts.Concurrency
// workers, and the counters they share.
type migration struct {
	opts        Options
	plan        *plan
	ri          dynamic.NamespaceableResourceInterface
	res         *Result
	afterObject func(done int) // testhook.AfterObject of the run's context
	// pruneOnly writes only the objects with managedFields entries of
	// unserved versions: the cluster engine's pass after the migrator.
	pruneOnly bool

	mu             sync.Mutex // guards res counters and progress output
	done           int
	total          atomic.Int64 // expected, from the first page's remainingItemCount
	lastOut        time.Time
	progressFailed bool // a progress write failed: no more progress output
}

// run lists and rewrites every object, through storagemigrate's Pass (the
// one implementation, which the webhook's --migrate-storage shares),
// counting and reporting each object as it is done.
func (m *migration) run(ctx context.Context) error {
	pass := &storagemigrate.Pass{
		Objects: m.ri, ServedAPI: m.plan.servedAPI, ChunkSize: m.opts.ChunkSize, Concurrency: m.opts.Concurrency,
		DryRun: m.opts.DryRun, PruneOnly: m.pruneOnly, Retrier: m.opts.retrier(), FieldManager: fieldManager,
		Expect: m.expect, Listed: m.listed, Done: m.record,
	}
	listErr := pass.Run(ctx)
	m.progress(true)
	if err := ctx.Err(); err != nil {
		if cerr := context.Cause(ctx); cerr != nil {
			err = cerr
		}
		return fmt.Errorf("interrupted after %d of %d objects (run again to finish; status.storedVersions left at %v): %w", m.done, max(m.res.total, m.res.expected), m.res.storedBefore, err)
	}
	if listErr != nil {
		return fmt.Errorf("listing %s: %w (status.storedVersions left at %v; run again)", m.plan.resource, listErr, m.res.storedBefore)
	}
	return nil
}

// expect records how many objects the first page announces: its own and
// the API server's remainingItemCount, an estimate for the progress output
// and the summary.
func (m *migration) expect(n int) {
	m.total.Store(int64(n))
	m.mu.Lock()
	m.res.expected = n
	m.mu.Unlock()
}

// listed counts an object the listing sent to the writers.
func (m *migration) listed() {
	m.mu.Lock()
	m.res.total++
	m.mu.Unlock()
}
