package webhook_test

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/crdforge/crdforge/webhook"
	"github.com/crdforge/crdforge/webhook/internal/testkit"
)

// deploymentMemoryLimit is the generated Deployment's memory limit, which
// its GOMEMLIMIT follows (internal/gen/deploy).
const deploymentMemoryLimit = 128 << 20

// largeReview is a ConversionReview of v1 Boxes shaped as the API server
// stores objects (labels, managedFields) to v3, just under the API server's
// 3 MiB, every object with the same uid so that every answer is the same.
func largeReview() []byte {
	const managedFields = `"managedFields":[{"manager":"kubectl-client-side-apply","operation":"Update","apiVersion":"test.io/v1",` +
		`"time":"2030-01-02T03:04:05Z","fieldsType":"FieldsV1","fieldsV1":{"f:metadata":{"f:labels":{".":{},"f:app":{}}},"f:hostPort":{}}}]`
	var objs []string
	for n, i := 0, 0; n < 3<<20-1024; i++ {
		name := fmt.Sprintf("box-%d", i)
		objs = append(objs, `{"apiVersion":"test.io/v1","kind":"Box","metadata":{"name":"`+name+`","namespace":"ns","uid":"u-`+name+
			`","resourceVersion":"12345","creationTimestamp":"2030-01-02T03:04:05Z","labels":{"app":"boxes"},`+managedFields+`},"hostPort":"host.example:1234"}`)
		n += len(objs[i]) + 1
	}
	return []byte(testkit.ReviewJSON("apiextensions.k8s.io/v1", "u1", "test.io/v3", objs...))
}

// peakMemory samples what the Go runtime holds from the OS (all its memory
// classes but heap memory released back) until stop is closed, and sends
// the largest value seen.
func peakMemory(stop <-chan struct{}, peak chan<- uint64) {
	samples := []metrics.Sample{{Name: "/memory/classes/total:bytes"}, {Name: "/memory/classes/heap/released:bytes"}}
	var most uint64
	tick := time.NewTicker(5 * time.Millisecond)
	defer tick.Stop()
	for {
		metrics.Read(samples)
		most = max(most, samples[0].Value.Uint64()-samples[1].Value.Uint64())
		select {
		case <-stop:
			peak <- most
			return
		case <-tick.C:
		}
	}
}

// TestLoadStaysUnderTheMemoryLimit sends 3 MiB ConversionReviews from 64
// clients at once for 10 s, as informers relisting after an API server
// restart do, to a handler run as the generated Deployment runs it: GOMEMLIMIT
// at the container's 128 MiB limit and the in-flight budget derived from it.
// Every answer must be the right one, after retrying 429s as the API
// server's client does, and the memory the Go runtime holds must stay under
// the limit. Without the budget, each of the 64 requests holds its body,
// tapes and response at once, some 600 MB.
//
// The process's RSS cannot be told apart from the test's own (the clients
// run here too), so the test samples what the Go runtime holds from the OS,
// heap in use and free, stacks and runtime structures, less what it has
// returned: the clients' share included, which only makes the bound
// stricter. The clients hash each answer as it arrives rather than hold it.
func TestLoadStaysUnderTheMemoryLimit(t *testing.T) {
	if testing.Short() {
		t.Skip("a 10 s load test; skipped with -short")
	}
	body := largeReview()
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(deploymentMemoryLimit))
	h, err := webhook.NewHandler(webhook.HandlerOptions{}, boxKind())
	if err != nil {
		t.Fatal(err)
	}
	want := sha256.Sum256(post(h, string(body)).Body.Bytes())
	srv := httptest.NewServer(h)
	defer srv.Close()
	runtime.GC()

	stop, peak := make(chan struct{}), make(chan uint64)
	go peakMemory(stop, peak)
	const clients, duration = 64, 10 * time.Second
	tr := &http.Transport{MaxIdleConnsPerHost: clients}
	defer tr.CloseIdleConnections()
	client := &http.Client{Transport: tr, Timeout: 60 * time.Second}
	var ok, retried, failed atomic.Int64
	var firstFailure atomic.Value
	var wg sync.WaitGroup
	end := time.Now().Add(duration)
	for range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for time.Now().Before(end) {
				switch code, sum, err := send(client, srv.URL, body); {
				case err == nil && code == http.StatusOK && sum == want:
					ok.Add(1)
				case err == nil && code == http.StatusTooManyRequests:
					retried.Add(1)
					time.Sleep(time.Second) // Retry-After
				default:
					failed.Add(1)
					firstFailure.CompareAndSwap(nil, fmt.Sprintf("status %d, right answer %v, error %v", code, sum == want, err))
				}
			}
		}()
	}
	wg.Wait()
	close(stop)
	most := <-peak
	t.Logf("%d clients, %d-byte reviews for %s: %d answered right, %d retried after 429; the runtime held at most %.1f MiB, the limit is %d MiB",
		clients, len(body), duration, ok.Load(), retried.Load(), float64(most)/(1<<20), deploymentMemoryLimit>>20)
	if f := failed.Load(); f > 0 {
		t.Errorf("%d requests failed, the first: %v", f, firstFailure.Load())
	}
	if ok.Load() == 0 {
		t.Error("no review was answered")
	}
	if most >= deploymentMemoryLimit {
		t.Errorf("the runtime held %.1f MiB, over the %d MiB limit", float64(most)/(1<<20), deploymentMemoryLimit>>20)
	}
}

// send posts one review and hashes the answer as it comes.
func send(client *http.Client, url string, body []byte) (int, [sha256.Size]byte, error) {
	var sum [sha256.Size]byte
	resp, err := client.Post(url+"/convert", "application/json", bytes.NewReader(body))
	if err != nil {
		return 0, sum, err
	}
	defer resp.Body.Close()
	hash := sha256.New()
	if _, err := io.Copy(hash, resp.Body); err != nil {
		return resp.StatusCode, sum, err
	}
	copy(sum[:], hash.Sum(nil))
	return resp.StatusCode, sum, nil
}
