package storagemigrate

import (
	"context"
	"errors"
	"fmt"
	"math/rand"
	"net/http"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	utilnet "k8s.io/apimachinery/pkg/util/net"
)

// A run makes thousands of requests; some meet failures that go away by
// themselves: the API server throttling (429) or failing (5xx, which is
// also how it reports a conversion webhook that is restarting), or the
// connection to it timing out, refused or reset. Such a request is tried
// again, after a jittered exponential backoff that is at least what the
// server's Retry-After asks, up to Retrier.Attempts in all; then
// its error says how often it was tried.

// MaxBackoff caps one wait of the exponential backoff (not a Retry-After).
const MaxBackoff = 30 * time.Second

// Retrier is one run's retry policy, shared by its requests.
type Retrier struct {
	Attempts int           // tries per request, the first included
	Base     time.Duration // the first backoff; each next one doubles
}

// Again reports whether a request whose attempt-th try failed with err is
// to be tried once more, after waiting for it: only transient errors are,
// and not once the context is done.
func (r Retrier) Again(ctx context.Context, attempt int, err error) bool {
	ok, after := Transient(err)
	if !ok || attempt >= r.Attempts || ctx.Err() != nil {
		return false
	}
	return SleepCtx(ctx, r.Backoff(attempt, after)) == nil
}

// Backoff is the wait after the attempt-th try: base doubled each time,
// capped, half of it random so that the workers that one restart failed
// together do not come back together; never shorter than retryAfter.
func (r Retrier) Backoff(attempt int, retryAfter time.Duration) time.Duration {
	d := MaxBackoff
	if shift := attempt - 1; shift < 16 {
		d = min(r.Base<<shift, MaxBackoff)
	}
	d = d/2 + time.Duration(rand.Int63n(int64(d/2+1)))
	return max(d, retryAfter)
}

// GaveUp is the error of a request that failed with err on its attempt-th
// try: for a transient error, it says the retries ran out.
func (r Retrier) GaveUp(attempt int, err error) error {
	if ok, _ := Transient(err); ok && attempt >= r.Attempts {
		return fmt.Errorf("still failing after %d attempts, giving up: %w", attempt, err)
	}
	return err
}

// Transient reports whether err may go away when the request is tried
// again, and how long the server asked to wait first (Retry-After).
func Transient(err error) (bool, time.Duration) {
	if err == nil || errors.Is(err, context.Canceled) {
		return false, 0
	}
	var after time.Duration
	if s, ok := apierrors.SuggestsClientDelay(err); ok {
		after = time.Duration(s) * time.Second
	}
	var st apierrors.APIStatus
	if errors.As(err, &st) {
		code := st.Status().Code
		return code == http.StatusTooManyRequests || code >= http.StatusInternalServerError, after
	}
	return utilnet.IsConnectionRefused(err) || utilnet.IsConnectionReset(err) || utilnet.IsProbableEOF(err) ||
		utilnet.IsHTTP2ConnectionLost(err) || utilnet.IsTimeout(err), 0
}

// SleepCtx waits for d, or until ctx is done.
func SleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
