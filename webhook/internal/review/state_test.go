package review

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync"
	"testing"
)

// discard is a ResponseWriter that keeps the status and drops the body, so
// that what a request allocates is the handler's alone.
type discard struct {
	header http.Header
	code   int
	n      int
}

func (d *discard) Header() http.Header         { return d.header }
func (d *discard) WriteHeader(code int)        { d.code = code }
func (d *discard) Write(b []byte) (int, error) { d.n += len(b); return len(b), nil }

// allocatedBy returns the bytes the handler allocates answering body once.
// The race detector makes that vary (the codec's pooled buffers come and
// go at random), so the tests that count bytes are skipped under it.
func allocatedBy(t *testing.T, h http.Handler, body string) uint64 {
	t.Helper()
	if raceDetector {
		t.Skip("allocations vary under the race detector")
	}
	r := httptest.NewRequest(http.MethodPost, "/convert", strings.NewReader(body))
	r.Header.Set("Content-Type", "application/json")
	w := &discard{header: http.Header{}}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	h.ServeHTTP(w, r)
	runtime.ReadMemStats(&after)
	if w.code != http.StatusOK || w.n == 0 {
		t.Fatalf("status %d, %d bytes", w.code, w.n)
	}
	return after.TotalAlloc - before.TotalAlloc
}

// largeReview is a review of n boxes converted from v1 to v3, each with a
// long host, so that its body and response, not its objects' small
// allocations, make most of the bytes the handler allocates.
func largeReview(uid string, n int) string {
	host := strings.Repeat("h", 4000)
	objects := make([]string, n)
	for i := range objects {
		objects[i] = box("v1", fmt.Sprintf("b%d", i), `"hostPort":"`+host+`:1"`)
	}
	return reviewBody("apiextensions.k8s.io/v1", uid, "test.io/v3", objects...)
}

// A server answering large reviews one after another reads each body into,
// and writes each response from, the memory of the last, even when garbage
// collections come between them, as a review's own objects make them come:
// a sync.Pool alone loses that memory after two.
func TestHandlerKeepsItsMemoryAcrossCollections(t *testing.T) {
	h := NewHandler(testTable(t), Options{})
	body := largeReview("u", 250) // 1 MB
	allocatedBy(t, h, body)
	warm := allocatedBy(t, h, body)
	runtime.GC()
	runtime.GC()
	afterGC := allocatedBy(t, h, body)
	if afterGC > warm+uint64(len(body))/2 {
		t.Errorf("after two collections a %d-byte review allocates %d bytes, %d more than before them: its body and response were allocated anew",
			len(body), afterGC, afterGC-warm)
	}
}

// A request answered with new memory (the first, or one beside others)
// makes its response's room once, from the size of the request, rather than
// growing it from nothing by appending, which allocates several times the
// response's size.
func TestHandlerSizesANewResponseFromTheRequest(t *testing.T) {
	body := largeReview("u", 250) // 1 MB
	fresh := allocatedBy(t, NewHandler(testTable(t), Options{}), body)
	h := NewHandler(testTable(t), Options{})
	allocatedBy(t, h, body)
	warm := allocatedBy(t, h, body)
	// New memory is the body, the response (about the body's size) and the
	// objects' index: about twice the body.
	if extra := fresh - warm; extra > 3*uint64(len(body)) {
		t.Errorf("a new state allocates %d bytes more than a kept one for a %d-byte review: more than the body and one response", extra, len(body))
	}
}

// A state with a buffer larger than maxPooledBytes is not kept: one
// outsized review does not hold its memory for the handler's life.
func TestHandlerKeepsNoOutsizedMemory(t *testing.T) {
	h := NewHandler(testTable(t), Options{MaxRequestBytes: 4 * maxPooledBytes})
	small := reviewBody("apiextensions.k8s.io/v1", "u1", "test.io/v3", box("v1", "a", `"hostPort":"h1:1"`))
	if w := post(h, "application/json", small); w.Code != http.StatusOK {
		t.Fatalf("status %d: %s", w.Code, w.Body)
	}
	if h.states.warm.Load() == nil {
		t.Fatal("the state of a small review is not kept")
	}
	huge := largeReview("u2", maxPooledBytes/4000+1)
	if w := post(h, "application/json", huge); w.Code != http.StatusOK || !strings.Contains(w.Body.String(), `"status":"Success"`) {
		t.Fatalf("status %d: %.300s", w.Code, w.Body)
	}
	if s := h.states.warm.Load(); s != nil && (s.body.Cap() > maxPooledBytes || cap(s.out) > maxPooledBytes) {
		t.Errorf("a state of %d and %d bytes is kept after a %d-byte review", s.body.Cap(), cap(s.out), len(huge))
	}
	if w := post(h, "application/json", small); w.Code != http.StatusOK || !strings.Contains(w.Body.String(), `"uid":"u1"`) {
		t.Errorf("after the outsized review: %d %s", w.Code, w.Body)
	}
	// A body within the bound whose objects are short tokens, whose tapes
	// are not.
	dense := reviewBody("apiextensions.k8s.io/v1", "u3", "test.io/v3",
		box("v1", "d", `"hostPort":"h:1","tokens":[`+strings.Repeat("1,", maxPooledBytes/4)+`1]`))
	if w := post(h, "application/json", dense); w.Code != http.StatusOK || !strings.Contains(w.Body.String(), `"status":"Success"`) {
		t.Fatalf("status %d: %.300s", w.Code, w.Body)
	}
	if s := h.states.warm.Load(); s != nil && s.review.TapeBytes() > maxPooledBytes {
		t.Errorf("a state with %d bytes of tapes is kept after a %d-byte review", s.review.TapeBytes(), len(dense))
	}
}

// Concurrent requests of different sizes each get their own memory and
// their own answer, byte for byte; run with -race.
func TestHandlerAnswersConcurrentReviewsEachItsOwn(t *testing.T) {
	h := NewHandler(testTable(t), Options{})
	sizes := []int{0, 1, 7, 60, 300}
	want := make([]string, len(sizes))
	bodies := make([]string, len(sizes))
	for i, n := range sizes {
		objects := make([]string, n)
		converted := make([]string, n)
		for j := range objects {
			name := fmt.Sprintf("r%d-%d", i, j)
			objects[j] = box("v1", name, fmt.Sprintf(`"hostPort":"host%d:%d"`, j, i))
			converted[j] = fmt.Sprintf(`{"kind":"Box","apiVersion":"test.io/v3","metadata":{"name":%q,"namespace":"ns","uid":"u-%s"},"host":"host%d","number":"%d"}`, name, name, j, i)
		}
		uid := fmt.Sprintf("uid-%d", i)
		bodies[i] = reviewBody("apiextensions.k8s.io/v1", uid, "test.io/v3", objects...)
		want[i] = `{"apiVersion":"apiextensions.k8s.io/v1","kind":"ConversionReview","response":{"uid":"` + uid + `","result":{"status":"Success"}`
		if n > 0 {
			want[i] += `,"convertedObjects":[` + strings.Join(converted, ",") + `]`
		}
		want[i] += `}}`
	}
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		g := g // each goroutine its own: the module is on Go 1.21's loop variables
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := 0; k < 40; k++ {
				i := (g + k) % len(sizes)
				w := post(h, "application/json", bodies[i])
				if got := w.Body.String(); w.Code != http.StatusOK || got != want[i] {
					t.Errorf("goroutine %d, review of %d objects: %d\n got %.400s\nwant %.400s", g, sizes[i], w.Code, got, want[i])
					return
				}
			}
		}()
	}
	wg.Wait()
}
