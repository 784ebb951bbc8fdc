package storagemigrate

import (
	"context"
	"fmt"
	"sync"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/dynamic"
)

// Outcome is what became of one object.
type Outcome int

// The outcomes of an object.
const (
	Written   Outcome = iota // written at the storage version
	Unchanged                // written, but already at the storage version: no new resourceVersion
	Skipped                  // deleted meanwhile
	Failed                   // not written: the run stops without trimming storedVersions
)

// maxListRestarts bounds how often an expired list is started over.
const maxListRestarts = 3

// Pass lists every object of a CRD and writes each back, so that the API
// server stores it at the storage version, dropping the managedFields
// entries of versions no longer served.
type Pass struct {
	// Objects is the resource at the storage version (Plan.Resource).
	Objects dynamic.NamespaceableResourceInterface
	// ServedAPI is Plan.ServedAPI: managedFields of other apiVersions go.
	ServedAPI map[string]struct{}
	// ChunkSize is the objects per list page; Concurrency the writers.
	ChunkSize   int64
	Concurrency int
	// DryRun writes with the server-side dry run.
	DryRun bool
	// PruneOnly writes only the objects with managedFields entries to drop:
	// the pass after the cluster's StorageVersionMigration.
	PruneOnly bool
	Retrier   Retrier
	// FieldManager of the writes (a write that changes no field adds no
	// managedFields entry).
	FieldManager string

	// Expect is called with the first page's estimate of the objects (its
	// own and its remainingItemCount); Listed once per object sent to a
	// writer; Done once per object written or not, from the writers, at once.
	// Any may be nil.
	Expect func(n int)
	Listed func()
	Done   func(obj *unstructured.Unstructured, o Outcome, dropped int, err error)
}

// Run lists and rewrites every object. Once ctx is cancelled the writers
// drain the list without writing, so that the lister is not left blocked;
// an object whose write the cancellation cut short is not Done. It returns
// the listing's error, if the listing failed; ctx's, and how many objects
// were done, are the caller's to tell.
func (p *Pass) Run(ctx context.Context) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	items := make(chan unstructured.Unstructured, p.ChunkSize)
	var listErr error
	go func() {
		defer close(items)
		listErr = p.list(ctx, items)
	}()
	var wg sync.WaitGroup
	for i := 0; i < p.Concurrency; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for obj := range items {
				obj := obj
				if ctx.Err() != nil {
					continue // drain
				}
				outcome, dropped, err := p.rewrite(ctx, &obj)
				if ctx.Err() != nil && err != nil {
					continue // interrupted: neither done nor failed
				}
				if p.Done != nil {
					p.Done(&obj, outcome, dropped, err)
				}
			}
		}()
	}
	wg.Wait()
	if ctx.Err() != nil {
		return nil
	}
	return listErr
}

// list sends every object, page by page, across namespaces. A page that
// fails transiently is asked for again with the same continue token, so
// the listing goes on where it stopped. When a page's continue token has
// expired (the listing outlived etcd's compaction window: 410 Expired),
// the listing starts over and skips the objects already sent.
func (p *Pass) list(ctx context.Context, out chan<- unstructured.Unstructured) error {
	sent := map[string]bool{}
	cont := ""
	first := true
	restarts := 0
	attempt := 1 // of the page asked for
	for {
		page, err := p.Objects.List(ctx, metav1.ListOptions{Limit: p.ChunkSize, Continue: cont})
		if err != nil {
			switch {
			case cont != "" && (apierrors.IsResourceExpired(err) || apierrors.IsGone(err)) && restarts < maxListRestarts:
				restarts++
				cont, attempt = "", 1
			case p.Retrier.Again(ctx, attempt, err):
				attempt++
			default:
				return p.Retrier.GaveUp(attempt, err)
			}
			continue
		}
		attempt = 1
		if first && p.Expect != nil {
			rem := int64(0)
			if r := page.GetRemainingItemCount(); r != nil {
				rem = *r
			}
			p.Expect(len(page.Items) + int(rem))
		}
		first = false
		if err := p.send(ctx, page, sent, out); err != nil {
			return err
		}
		if cont = page.GetContinue(); cont == "" {
			return nil
		}
	}
}

// send sends the objects of page not sent before.
func (p *Pass) send(ctx context.Context, page *unstructured.UnstructuredList, sent map[string]bool, out chan<- unstructured.Unstructured) error {
	for _, it := range page.Items {
		key := it.GetNamespace() + "/" + it.GetName()
		if sent[key] {
			continue
		}
		sent[key] = true
		if p.Listed != nil {
			p.Listed()
		}
		select {
		case out <- it:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return nil
}

// rewrite writes obj back at the storage version, re-reading it on
// conflicts and trying again after transient errors, and returns what
// happened and how many managedFields entries the write dropped. A write
// that failed transiently may have gone through: tried again with the old
// resourceVersion it conflicts, and the object is read again.
func (p *Pass) rewrite(ctx context.Context, obj *unstructured.Unstructured) (Outcome, int, error) {
	ri := p.Objects.Namespace(obj.GetNamespace())
	opts := metav1.UpdateOptions{FieldManager: p.FieldManager}
	if p.DryRun {
		opts.DryRun = []string{metav1.DryRunAll}
	}
	r := p.Retrier
	reread := false
	for attempt := 1; ; attempt++ {
		if reread {
			cur, err := ri.Get(ctx, obj.GetName(), metav1.GetOptions{})
			switch {
			case apierrors.IsNotFound(err):
				return Skipped, 0, nil
			case err != nil && r.Again(ctx, attempt, err):
				continue
			case err != nil:
				return Failed, 0, r.GaveUp(attempt, err)
			}
			obj, reread = cur, false
		}
		rv := obj.GetResourceVersion()
		w := obj.DeepCopy()
		dropped := PruneManagedFields(w, p.ServedAPI)
		if p.PruneOnly && dropped == 0 {
			return Unchanged, 0, nil
		}
		got, err := ri.Update(ctx, w, opts)
		switch {
		case err == nil:
			if !p.DryRun && got.GetResourceVersion() == rv {
				return Unchanged, dropped, nil
			}
			return Written, dropped, nil
		case apierrors.IsNotFound(err):
			return Skipped, 0, nil
		case apierrors.IsConflict(err) && attempt < r.Attempts:
			reread = true
		case apierrors.IsConflict(err):
			return Failed, 0, fmt.Errorf("still conflicting after %d attempts, giving up: %w", attempt, err)
		case !r.Again(ctx, attempt, err):
			return Failed, 0, r.GaveUp(attempt, err)
		}
	}
}
