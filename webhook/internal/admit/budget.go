// Package admit bounds the request bytes the conversion webhook works on
// at once. A ConversionReview costs memory in proportion to its body (the
// body, the review's tapes, the response, each object's decoded values), so
// bounding the bytes in flight bounds the heap under any number of
// concurrent requests, where a bound on their number would let a few large
// reviews through as easily as many small ones.
//
// Budget is a weighted semaphore, as golang.org/x/sync/semaphore is, written
// here for two reasons: that module is not among the webhook module's
// requirements, and every module it adds is one more an adopter's go.mod
// takes at the version this one names (adoption_test.go holds the module to
// the oldest versions it promises); and a request larger than the whole
// budget must be admitted alone rather than wait forever, which
// x/sync's Acquire does with a weight above its size.
package admit

import (
	"container/list"
	"context"
	"sync"
)

// Budget is a number of bytes that requests take a share of while they are
// served. Waiters are admitted in the order they came: a large request is
// not passed over forever by smaller ones that would fit.
type Budget struct {
	mu      sync.Mutex
	size    int64
	used    int64
	waiters list.List // of *waiter
}

type waiter struct {
	n     int64
	ready chan struct{} // closed when admitted
}

// NewBudget returns a budget of size bytes, at least 1.
func NewBudget(size int64) *Budget {
	return &Budget{size: max(size, 1)}
}

// Size is the budget's size in bytes.
func (b *Budget) Size() int64 { return b.size }

// Acquire takes n bytes of the budget, or the whole budget when n is larger,
// waiting until they are free or ctx is done. It returns what it took, to
// be given back to Release, or ctx's error, having taken nothing.
func (b *Budget) Acquire(ctx context.Context, n int64) (int64, error) {
	n = min(max(n, 0), b.size)
	b.mu.Lock()
	if b.waiters.Len() == 0 && b.used+n <= b.size {
		b.used += n
		b.mu.Unlock()
		return n, nil
	}
	w := &waiter{n: n, ready: make(chan struct{})}
	elem := b.waiters.PushBack(w)
	b.mu.Unlock()

	select {
	case <-w.ready:
		return n, nil
	case <-ctx.Done():
		return 0, b.giveUp(elem, w, ctx.Err())
	}
}

// giveUp takes a waiter whose context ended out of the queue. Admitted in
// between, it keeps its bytes only long enough to release them: the caller
// has already been told no. Leaving the head of the queue may let those
// behind it in.
func (b *Budget) giveUp(elem *list.Element, w *waiter, err error) error {
	b.mu.Lock()
	select {
	case <-w.ready:
		b.used -= w.n
	default:
		b.waiters.Remove(elem)
	}
	b.admitWaiters()
	b.mu.Unlock()
	return err
}

// Release gives back n bytes that Acquire took, or part of them.
func (b *Budget) Release(n int64) {
	if n <= 0 {
		return
	}
	b.mu.Lock()
	b.used -= n
	if b.used < 0 {
		b.mu.Unlock()
		panic("admit: released more than acquired")
	}
	b.admitWaiters()
	b.mu.Unlock()
}

// admitWaiters admits waiters from the head of the queue while they fit.
// It stops at the first that does not, so that the order holds. b.mu is
// held.
func (b *Budget) admitWaiters() {
	for {
		front := b.waiters.Front()
		if front == nil {
			return
		}
		w := front.Value.(*waiter)
		if b.used+w.n > b.size {
			return
		}
		b.used += w.n
		b.waiters.Remove(front)
		close(w.ready)
	}
}
