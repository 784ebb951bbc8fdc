package migrate

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
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
// server's Retry-After asks, up to Options.retries attempts in all; then
// its error says how often it was tried.

// maxBackoff caps one wait of the exponential backoff (not a Retry-After).
const maxBackoff = 30 * time.Second

// retrier is one run's retry policy, shared by its requests.
type retrier struct {
	attempts int           // tries per request, the first included
	base     time.Duration // the first backoff; each next one doubles
}

func (opts Options) retrier() retrier {
	return retrier{attempts: opts.retries, base: opts.retryBase}
}

// again reports whether a request whose attempt-th try failed with err is
// to be tried once more, after waiting for it: only transient errors are,
// and not once the context is done.
func (r retrier) again(ctx context.Context, attempt int, err error) bool {
	ok, after := transient(err)
	if !ok || attempt >= r.attempts || ctx.Err() != nil {
		return false
	}
	return sleepCtx(ctx, r.backoff(attempt, after)) == nil
}

// backoff is the wait after the attempt-th try: base doubled each time,
// capped, half of it random so that the workers that one restart failed
// together do not come back together; never shorter than retryAfter.
func (r retrier) backoff(attempt int, retryAfter time.Duration) time.Duration {
	d := maxBackoff
	if shift := attempt - 1; shift < 16 {
		d = min(r.base<<shift, maxBackoff)
	}
	d = d/2 + rand.N(d/2+1)
	return max(d, retryAfter)
}

// gaveUp is the error of a request that failed with err on its attempt-th
// try: for a transient error, it says the retries ran out.
func (r retrier) gaveUp(attempt int, err error) error {
	if ok, _ := transient(err); ok && attempt >= r.attempts {
		return fmt.Errorf("still failing after %d attempts, giving up: %w", attempt, err)
	}
	return err
}

// transient reports whether err may go away when the request is tried
// again, and how long the server asked to wait first (Retry-After).
func transient(err error) (bool, time.Duration) {
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

// sleepCtx waits for d, or until ctx is done.
func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
