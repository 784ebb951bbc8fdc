package e2e

import (
	"context"
	"testing"
	"time"
)

// deadlineMargin is what a long test keeps back, of the time go test's
// -timeout gives it, to stop its commands and report what they printed.
const deadlineMargin = time.Minute

// UntilDeadline returns a context that ends deadlineMargin before the test
// binary's -timeout, or never without one. A long test (a tier that compiles
// projects' dependencies from an empty build cache) is then bounded by the
// Makefile's -timeout alone, one figure to raise when a cold machine needs
// more, and it still fails with its command's output rather than go test's
// panic and goroutine dump. Its cancel runs at t's cleanup, after parallel
// subtests.
func UntilDeadline(t *testing.T) context.Context {
	deadline, ok := t.Deadline()
	if !ok {
		return t.Context()
	}
	ctx, cancel := context.WithDeadline(context.Background(), deadline.Add(-deadlineMargin))
	t.Cleanup(cancel)
	return ctx
}
