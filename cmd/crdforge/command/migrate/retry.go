package migrate

import (
	"time"

	"github.com/crdforge/crdforge/webhook/storagemigrate"
)

// A run makes thousands of requests; some meet failures that go away by
// themselves: the API server throttling (429) or failing (5xx, which is
// also how it reports a conversion webhook that is restarting), or the
// connection to it timing out, refused or reset. Such a request is tried
// again, after a jittered exponential backoff that is at least what the
// server's Retry-After asks, up to Options.retries attempts in all; then
// its error says how often it was tried. The policy is
// storagemigrate.Retrier, which the webhook's --migrate-storage shares.

// maxBackoff caps one wait of the exponential backoff (not a Retry-After).
const maxBackoff = storagemigrate.MaxBackoff

// retrier is one run's retry policy, shared by its requests.
type retrier = storagemigrate.Retrier

func (opts Options) retrier() retrier {
	return retrier{Attempts: opts.retries, Base: opts.retryBase}
}

// transient reports whether err may go away when the request is tried
// again, and how long the server asked to wait first (Retry-After).
func transient(err error) (bool, time.Duration) { return storagemigrate.Transient(err) }
