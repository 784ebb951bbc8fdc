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

// bytesPerRequestByte is what one request byte in flight may cost the
// Go runtime at once, the budget's divisor. A review's state (its body, the
// review's tapes and the response) keeps 3.1 bytes per request byte, and
// the states sync.Pool holds for the requests to come and the objects being
// converted about as much again: at the peak of TestLoadStaysUnderTheMemoryLimit
// the live heap was 7 bytes per byte in flight, and the collector lets the
// heap grow to twice the live heap before it collects (GOGC=100). Sixteen
// leaves the webhook process of that test, at a 128 MiB limit, at a peak
// RSS of some 122 MiB (the binary, TLS and the runtime's own memory
// included).
const bytesPerRequestByte = 16

// maxInflightWithoutLimit is the budget when the runtime has no memory
// limit: eight reviews of the API server's largest, which two cores convert
// no faster together than one after another, while any number of small
// ones fit.
const maxInflightWithoutLimit = 8 * DefaultMaxRequestBytes

// MaxInflightBytesFor is the in-flight budget for a memory limit in bytes,
// such as GOMEMLIMIT's (debug.SetMemoryLimit(-1)): a fraction
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
