package migrate

import (
	"context"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// maxListRestarts bounds how often an expired list is started over.
const maxListRestarts = 3

// list sends every object, page by page, across namespaces. A page that
// fails transiently is asked for again with the same continue token, so
// the listing goes on where it stopped. When a page's continue token has
// expired (the listing outlived etcd's compaction window: 410 Expired),
// the listing starts over and skips the objects already sent.
func (m *migration) list(ctx context.Context, out chan<- unstructured.Unstructured) error {
	sent := map[string]bool{}
	cont := ""
	first := true
	restarts := 0
	r := m.opts.retrier()
	attempt := 1 // of the page asked for
	for {
		page, err := m.ri.List(ctx, metav1.ListOptions{Limit: m.opts.ChunkSize, Continue: cont})
		if err != nil {
			switch {
			case cont != "" && (apierrors.IsResourceExpired(err) || apierrors.IsGone(err)) && restarts < maxListRestarts:
				restarts++
				cont, attempt = "", 1
			case r.again(ctx, attempt, err):
				attempt++
			default:
				return r.gaveUp(attempt, err)
			}
			continue
		}
		attempt = 1
		if first {
			m.expect(page)
			first = false
		}
		if err := m.send(ctx, page, sent, out); err != nil {
			return err
		}
		cont = page.GetContinue()
		if cont == "" {
			return nil
		}
	}
}

// send sends the objects of page not sent before.
func (m *migration) send(ctx context.Context, page *unstructured.UnstructuredList, sent map[string]bool, out chan<- unstructured.Unstructured) error {
	for _, it := range page.Items {
		key := it.GetNamespace() + "/" + it.GetName()
		if sent[key] {
			continue
		}
		sent[key] = true
		m.mu.Lock()
		m.res.total++
		m.mu.Unlock()
		select {
		case out <- it:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return nil
}

// expect records how many objects the first page announces: its own and
// the API server's remainingItemCount, an estimate for the progress output
// and the summary.
func (m *migration) expect(first *unstructured.UnstructuredList) {
	rem := int64(0)
	if r := first.GetRemainingItemCount(); r != nil {
		rem = *r
	}
	m.total.Store(int64(len(first.Items)) + rem)
	m.mu.Lock()
	m.res.expected = len(first.Items) + int(rem)
	m.mu.Unlock()
}
