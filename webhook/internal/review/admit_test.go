package review

import (
	"context"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/crdforge/crdforge/webhook/internal/metrics"
	"github.com/crdforge/crdforge/webhook/internal/testkit"
)

// holdBudget takes n bytes of h's budget, as requests in flight would,
// until the test ends or the returned func gives them back.
func holdBudget(t *testing.T, h *Handler, n int64) (release func()) {
	t.Helper()
	got, err := h.budget.Acquire(context.Background(), n)
	if err != nil || got != n {
		t.Fatalf("holding %d bytes: took %d, %v", n, got, err)
	}
	released := false
	release = func() {
		if !released {
			released = true
			h.budget.Release(n)
		}
	}
	t.Cleanup(release)
	return release
}

// chunked posts body without a Content-Length, as a chunked request comes.
func chunked(h http.Handler, body string) *httptest.ResponseRecorder {
	r := httptest.NewRequest(http.MethodPost, "/convert", io.MultiReader(strings.NewReader(body)))
	r.ContentLength = -1
	r.Header.Set("Content-Type", "application/json")
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w
}

// A review whose bytes do not fit beside those in flight waits, and past
// AdmitWait is answered 429 with Retry-After, which the API server's
// client retries: never converted into memory the limit does not have.
func TestHandlerAnswers429WhenTheInflightBudgetStaysFull(t *testing.T) {
	reg := prometheus.NewRegistry()
	m, err := metrics.New(reg)
	if err != nil {
		t.Fatal(err)
	}
	body := reviewBody("apiextensions.k8s.io/v1", "u1", "test.io/v3", box("v1", "a", `"hostPort":"h:1"`))
	h := NewHandler(testTable(t), Options{MaxInflightBytes: int64(len(body)) + 10, AdmitWait: 50 * time.Millisecond, Metrics: m})
	release := holdBudget(t, h, 11)
	start := time.Now()
	w := post(h, "application/json", body)
	if w.Code != http.StatusTooManyRequests || w.Header().Get("Retry-After") != "1" || !strings.Contains(w.Body.String(), "--max-inflight-bytes") {
		t.Fatalf("over the budget: %d, Retry-After %q: %s", w.Code, w.Header().Get("Retry-After"), w.Body)
	}
	if waited := time.Since(start); waited < 50*time.Millisecond {
		t.Errorf("answered after %s, before AdmitWait", waited)
	}
	if got := testkit.CounterValue(t, reg, "crdforge_conversion_failures_total", "reason", "overloaded"); got != 1 {
		t.Errorf("overloaded failures: %v, want 1", got)
	}
	release()
	if out := decode(t, post(h, "application/json", body)); out.Response.Result.Status != "Success" {
		t.Errorf("with the budget free: %+v", out)
	}
}

// A request that waits is served as soon as the bytes before it go.
func TestHandlerServesAWaitingRequestWhenBytesAreReleased(t *testing.T) {
	body := reviewBody("apiextensions.k8s.io/v1", "u1", "test.io/v3", box("v1", "a", `"hostPort":"h:1"`))
	h := NewHandler(testTable(t), Options{MaxInflightBytes: int64(len(body)), AdmitWait: 10 * time.Second})
	release := holdBudget(t, h, 1)
	time.AfterFunc(20*time.Millisecond, release)
	if out := decode(t, post(h, "application/json", body)); out.Response.Result.Status != "Success" {
		t.Errorf("after waiting: %+v", out)
	}
}

// A body without Content-Length is admitted for the largest body it may
// be, so that chunked requests cannot pass the budget; once read, it keeps
// only what it read.
func TestHandlerCountsAChunkedBodyAsTheLargestItMayBe(t *testing.T) {
	body := reviewBody("apiextensions.k8s.io/v1", "u1", "test.io/v3", box("v1", "a", `"hostPort":"h:1"`))
	const maxBody = 64 << 10
	h := NewHandler(testTable(t), Options{MaxRequestBytes: maxBody, MaxInflightBytes: maxBody, AdmitWait: 50 * time.Millisecond})
	release := holdBudget(t, h, int64(len(body)))
	if w := chunked(h, body); w.Code != http.StatusTooManyRequests {
		t.Fatalf("a chunked body beside %d bytes in a budget of its maximum: %d %s", len(body), w.Code, w.Body)
	}
	release()
	if out := decode(t, chunked(h, body)); out.Response.Result.Status != "Success" {
		t.Fatalf("a chunked body alone: %+v", out)
	}
	holdBudget(t, h, maxBody) // nothing of the chunked request is still held
}

func TestMaxInflightBytesForIsAFractionOfTheMemoryLimit(t *testing.T) {
	for _, c := range []struct{ limit, want int64 }{
		{102 << 20, 102 << 20 / 24}, // a 128 MiB container's Go limit
		{1 << 30, 1 << 30 / 24},
		{math.MaxInt64, 24 << 20}, // no limit: eight of the largest reviews
		{0, 24 << 20},
	} {
		if got := MaxInflightBytesFor(c.limit); got != c.want {
			t.Errorf("MaxInflightBytesFor(%d) = %d, want %d", c.limit, got, c.want)
		}
	}
}
