package migrate

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/dynamic"
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

// run lists and rewrites every object. Once the context is cancelled the
// workers drain the channel without writing, so the lister is not left
// blocked; an object whose write the cancellation cut short counts as
// neither done nor failed.
func (m *migration) run(ctx context.Context) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	items := make(chan unstructured.Unstructured, m.opts.ChunkSize)
	var listErr error
	go func() {
		defer close(items)
		listErr = m.list(ctx, items)
	}()
	var wg sync.WaitGroup
	for range m.opts.Concurrency {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for obj := range items {
				if ctx.Err() != nil {
					continue // drain
				}
				outcome, dropped, err := m.rewrite(ctx, &obj)
				if ctx.Err() != nil && err != nil {
					continue // interrupted: neither done nor failed
				}
				m.record(&obj, outcome, dropped, err)
			}
		}()
	}
	wg.Wait()
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
