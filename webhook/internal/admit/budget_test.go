package admit

import (
	"context"
	"errors"
	"testing"
	"time"
)

func acquired(t *testing.T, b *Budget, n int64) int64 {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	got, err := b.Acquire(ctx, n)
	if err != nil {
		t.Fatalf("Acquire(%d): %v", n, err)
	}
	return got
}

// admittedWithin reports whether Acquire(n) returns within d.
func admittedWithin(b *Budget, n int64, d time.Duration) bool {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	_, err := b.Acquire(ctx, n)
	return err == nil
}

func TestBudgetAdmitsUpToItsSizeThenWaits(t *testing.T) {
	b := NewBudget(10)
	acquired(t, b, 6)
	acquired(t, b, 4)
	if admittedWithin(b, 1, 20*time.Millisecond) {
		t.Fatal("a byte over the budget was admitted")
	}
	b.Release(4)
	if !admittedWithin(b, 4, time.Second) {
		t.Fatal("released bytes were not admitted again")
	}
}

func TestBudgetAdmitsARequestLargerThanItselfAlone(t *testing.T) {
	b := NewBudget(10)
	if got := acquired(t, b, 25); got != 10 {
		t.Fatalf("took %d of a budget of 10", got)
	}
	if admittedWithin(b, 1, 20*time.Millisecond) {
		t.Fatal("admitted beside a request that took the whole budget")
	}
	b.Release(10)
	acquired(t, b, 10)
}

// A waiter that gives up takes nothing, and the waiters behind it, which
// it held up, are admitted.
func TestBudgetWaiterGivingUpTakesNothing(t *testing.T) {
	b := NewBudget(10)
	acquired(t, b, 8)
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error)
	go func() {
		_, err := b.Acquire(ctx, 5) // waits: 8+5 > 10
		errc <- err
	}()
	waitQueued(t, b, 1)
	small := make(chan struct{})
	go func() {
		acquired(t, b, 2) // fits, but waits behind the 5
		close(small)
	}()
	waitQueued(t, b, 2)
	cancel()
	if err := <-errc; !errors.Is(err, context.Canceled) {
		t.Fatalf("the waiter that gave up: %v", err)
	}
	select {
	case <-small:
	case <-time.After(time.Second):
		t.Fatal("the waiter behind one that gave up was not admitted")
	}
	b.Release(10)
	if b.used != 0 {
		t.Fatalf("%d bytes still used", b.used)
	}
}

// Waiters are admitted in order: a large one is not passed over by smaller
// ones that came after it.
func TestBudgetAdmitsInOrder(t *testing.T) {
	b := NewBudget(10)
	acquired(t, b, 5)
	large := make(chan struct{})
	go func() { acquired(t, b, 10); close(large) }()
	waitQueued(t, b, 1)
	if admittedWithin(b, 1, 20*time.Millisecond) {
		t.Fatal("a small request passed a large one waiting before it")
	}
	b.Release(5)
	<-large
}

func TestBudgetPanicsOnReleasingMoreThanAcquired(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("no panic")
		}
	}()
	NewBudget(10).Release(1)
}

func waitQueued(t *testing.T, b *Budget, n int) {
	t.Helper()
	for deadline := time.Now().Add(time.Second); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
		b.mu.Lock()
		l := b.waiters.Len()
		b.mu.Unlock()
		if l == n {
			return
		}
	}
	t.Fatalf("%d waiters never queued", n)
}
