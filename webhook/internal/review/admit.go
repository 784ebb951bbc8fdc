package review

import (
	"context"
	"fmt"
	"math"
	"net/http"
	"time"
)

// DefaultAdmitWait is how long a request waits for its share of the
// in-flight budget. The API server gives a conversion call no timeout of
// its own but that of the request it serves (60 s by default); its client
// (client-go's rest client) retries a 429 that carries Retry-After, up to
// ten times, waiting as told. Waiting well under the request's time and
// then answering 429 lets it retry, here or, through the Service, on
// another replica, before its caller gives up.
const DefaultAdmitWait = 10 * time.Second

// retryAfterSeconds is the Retry-After of a 429: a large review's
// conversion takes a fraction of a second, so a second frees room.
const retryAfterSeconds = "1"

// bytesPerRequestByte is the budget's divisor: what one request byte in
// flight may cost the process at its peak, so that the heap the budget lets
// in stays under the Go memory limit, which then only catches the rare
// peak. A review's state (its body, the review's tapes and the response)
// keeps 3.6 bytes per request byte, and while it is converted the heap's
// objects, garbage not yet collected included, peak near 10
// (BenchmarkReviewMemory); the sync.Pool's states of concurrent requests,
// the runtime's own memory and the binary come on top. In
// TestLoadStaysUnderTheMemoryLimit, a 128 MiB container (a Go limit of
// 102.4 MiB, see webhook.Run) admits one 3 MiB review at a time and peaks
// near 57 MiB RSS. At sixteen it admitted two, and the heap lived at the
// limit, the collector running to hold it there.
const bytesPerRequestByte = 24

// maxInflightWithoutLimit is the budget when the runtime has no memory
// limit: eight reviews of the API server's largest, which two cores convert
// no faster together than one after another, while any number of small
// ones fit.
const maxInflightWithoutLimit = 8 * DefaultMaxRequestBytes

// MaxInflightBytesFor is the in-flight budget for a Go memory limit in
// bytes (debug.SetMemoryLimit(-1): GOMEMLIMIT's, or the one webhook.Run
// sets from the container's limit): a fraction
// (1/bytesPerRequestByte) of it, or maxInflightWithoutLimit when there is no
// limit (math.MaxInt64, Go's default).
func MaxInflightBytesFor(memoryLimit int64) int64 {
	if memoryLimit <= 0 || memoryLimit == math.MaxInt64 {
		return maxInflightWithoutLimit
	}
	return max(memoryLimit/bytesPerRequestByte, 1)
}

// admit waits, up to AdmitWait, for the request's share of the budget: its
// Content-Length, or MaxRequestBytes when it has none (a chunked body),
// which keepRead cuts to what was read. Bytes counted as they arrive would
// let two chunked requests each hold part of the budget waiting for more,
// and neither finish.
func (h *Handler) admit(r *http.Request) (int64, *httpError) {
	n := r.ContentLength
	if n < 0 {
		n = h.opts.MaxRequestBytes
	}
	ctx, cancel := context.WithTimeout(r.Context(), h.opts.AdmitWait)
	defer cancel()
	share, err := h.budget.Acquire(ctx, n)
	if err != nil {
		return 0, &httpError{http.StatusTooManyRequests, "overloaded", fmt.Sprintf(
			"the webhook is converting as many request bytes as its memory allows (--max-inflight-bytes %d); waited %s for %d more, retry", h.budget.Size(), h.opts.AdmitWait, n)}
	}
	return share, nil
}

// keepRead gives back what a request of unknown length took beyond the
// bytes it turned out to have, and returns the share it keeps.
func (h *Handler) keepRead(r *http.Request, share int64, read int) int64 {
	if r.ContentLength >= 0 || int64(read) >= share {
		return share
	}
	h.budget.Release(share - int64(read))
	return int64(read)
}
