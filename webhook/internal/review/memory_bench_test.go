package review

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"runtime"
	"runtime/metrics"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// storedReview is a ConversionReview of v1 Boxes shaped as the API server
// stores objects (labels, managedFields) to v3, of about size bytes: the
// load test's review (webhook/memory_test.go), whose cost per byte the
// in-flight budget's divisor rests on.
func storedReview(size int) string {
	const managedFields = `"managedFields":[{"manager":"kubectl-client-side-apply","operation":"Update","apiVersion":"test.io/v1",` +
		`"time":"2030-01-02T03:04:05Z","fieldsType":"FieldsV1","fieldsV1":{"f:metadata":{"f:labels":{".":{},"f:app":{}}},"f:hostPort":{}}}]`
	var objs []string
	for n, i := 0, 0; n < size-1024; i++ {
		name := fmt.Sprintf("box-%d", i)
		objs = append(objs, `{"apiVersion":"test.io/v1","kind":"Box","metadata":{"name":"`+name+`","namespace":"ns","uid":"u-`+name+
			`","resourceVersion":"12345","creationTimestamp":"2030-01-02T03:04:05Z","labels":{"app":"boxes"},`+managedFields+`},"hostPort":"host.example:1234"}`)
		n += len(objs[i]) + 1
	}
	return reviewBody("apiextensions.k8s.io/v1", "u1", "test.io/v3", objs...)
}

// heapObjects is the heap's bytes in objects, live or not yet swept, read
// without stopping the world.
func heapObjects(s []metrics.Sample) uint64 {
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// BenchmarkReviewMemory answers 3 MiB reviews of stored objects one after
// another, as a handler under the in-flight budget does, and reports per
// request byte:
//
//   - alloc-B/req-B: the bytes a request allocates, its kept state reused;
//   - kept-B/req-B: the heap an idle handler keeps after such a request
//     (its state: body, tapes, response), after a collection;
//   - peak-B/req-B: the most the heap's objects (garbage the collector has
//     not taken yet included) grew above the heap before the handler's
//     first request, its kept state included, sampled every 20 µs at the
//     default GOGC: what the RSS follows.
func BenchmarkReviewMemory(b *testing.B) {
	body := storedReview(3 << 20)
	h := NewHandler(testTable(b), Options{})
	serve := func() {
		r := httptest.NewRequest(http.MethodPost, "/convert", strings.NewReader(body))
		r.Header.Set("Content-Type", "application/json")
		w := &discard{header: http.Header{}}
		h.ServeHTTP(w, r)
		if w.code != http.StatusOK {
			b.Fatalf("status %d", w.code)
		}
	}
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	runtime.GC()
	empty := heapObjects(sample)
	serve()
	runtime.GC()
	idle := heapObjects(sample)

	var peak atomic.Uint64
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		s := []metrics.Sample{{Name: sample[0].Name}}
		for {
			select {
			case <-stop:
				return
			case <-time.After(20 * time.Microsecond):
			}
			if v := heapObjects(s); v > peak.Load() {
				peak.Store(v)
			}
		}
	}()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	b.ResetTimer()
	for n := 0; n < b.N; n++ {
		serve()
	}
	b.StopTimer()
	runtime.ReadMemStats(&after)
	close(stop)
	<-done

	reqBytes := float64(len(body))
	b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/float64(b.N)/reqBytes, "alloc-B/req-B")
	b.ReportMetric(float64(idle-empty)/reqBytes, "kept-B/req-B")
	b.ReportMetric(float64(peak.Load()-min(peak.Load(), empty))/reqBytes, "peak-B/req-B")
	b.SetBytes(int64(len(body)))
}
