package webhook_test

import (
	"bytes"
	"crypto/sha256"
	"crypto/tls"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/crdforge/crdforge/webhook"
	"github.com/crdforge/crdforge/webhook/internal/testkit"
)

// deploymentMemoryLimit is the generated Deployment's memory limit, which
// it gives the webhook in webhook.ContainerMemoryLimitEnv (generators/deploy).
const deploymentMemoryLimit = 128 << 20

// peakBound is the most the webhook's peak RSS may reach under the load
// test, well under deploymentMemoryLimit: the kubelet kills at the limit,
// and a peak within a few MiB of it, as with the Go limit at the
// container's, fails in production on a request or a goroutine more. The
// webhook's Go limit is 80% of the container's (102.4 MiB), and its budget
// keeps the heap under that.
const peakBound = 100 << 20

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

// serveEnv, set in the environment, makes the test binary the webhook the
// load test measures, as a generated main runs it: webhook.Run with
// serveArgsEnv's flags (one per line) and the test kind, the container's
// memory limit in its environment variable.
const (
	serveEnv     = "CRDFORGE_WEBHOOK_LOAD_SERVER"
	serveArgsEnv = "CRDFORGE_WEBHOOK_LOAD_ARGS"
)

func TestMain(m *testing.M) {
	if os.Getenv(serveEnv) != "" {
		fs := flag.NewFlagSet("webhook", flag.ExitOnError)
		opts := webhook.BindFlags(fs)
		_ = fs.Parse(strings.Split(os.Getenv(serveArgsEnv), "\n"))
		os.Exit(webhook.Run(opts, boxKind()))
	}
	os.Exit(m.Run())
}

// server is the webhook run in a process of its own.
type server struct {
	cmd    *exec.Cmd
	addr   string // host:port of its HTTPS endpoint
	health string // host:port of its probes
}

// startServer runs the test binary as the webhook (TestMain) with the
// generated Deployment's flags, certificate from pki, ports free on
// loopback, and its environment: the container's memory limit, and neither
// GOGC nor GOMEMLIMIT, and env. It waits until the webhook answers. It is
// killed when the test ends.
func startServer(t *testing.T, pki *testkit.PKI, env ...string) *server {
	t.Helper()
	port, metrics, health := freePort(t), freePort(t), freePort(t)
	args := []string{"--cert-dir=" + testkit.CertDir(t, pki.Serving1), "--bind-address=127.0.0.1", "--port=" + port,
		"--metrics-bind-address=127.0.0.1:" + metrics, "--health-probe-bind-address=127.0.0.1:" + health,
		"--shutdown-grace-period=0"}
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(asDeployed(os.Environ()), serveEnv+"=1", serveArgsEnv+"="+strings.Join(args, "\n"),
		webhook.ContainerMemoryLimitEnv+"="+strconv.Itoa(deploymentMemoryLimit))
	cmd.Env = append(cmd.Env, env...)
	log, err := os.Create(filepath.Join(t.TempDir(), "webhook.log"))
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = log
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		_ = log.Close() // the child's log, read if the test failed
	})
	testkit.WaitUntil(t, "the webhook is ready", 10*time.Second, func() bool {
		resp, err := http.Get("http://127.0.0.1:" + health + "/readyz")
		if err == nil {
			_ = resp.Body.Close() // a probe's empty body
		}
		return err == nil && resp.StatusCode == http.StatusOK
	})
	return &server{cmd: cmd, addr: "127.0.0.1:" + port, health: "127.0.0.1:" + health}
}

// asDeployed is env without the Go runtime's GOGC and GOMEMLIMIT, which the
// generated Deployment does not set. The Makefile sets both for the go
// commands it runs (GOGC=400 for the compiler), and the webhook would run
// with them: under GOGC=400 its heap grows to its Go limit, and the peak
// measured was that of a tuning no deployment has (104 MiB against 53).
func asDeployed(env []string) []string {
	return slices.DeleteFunc(slices.Clone(env), func(kv string) bool {
		return strings.HasPrefix(kv, "GOGC=") || strings.HasPrefix(kv, "GOMEMLIMIT=")
	})
}

// freePort is a port free on loopback now, for a process to listen on.
func freePort(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = ln.Close() }() // closed to free the port for the child
	return strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
}

// peakRSS is the process's peak resident set size (VmHWM), what the
// kubelet's memory limit holds a container to.
func peakRSS(t *testing.T, pid int) uint64 {
	t.Helper()
	status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(status), "\n") {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, err := strconv.ParseUint(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			return kb << 10
		}
	}
	t.Fatalf("/proc/%d/status has no VmHWM", pid)
	return 0
}

// TestLoadStaysUnderTheMemoryLimit sends 3 MiB ConversionReviews from 64
// clients at once for 10 s, as informers relisting after an API server
// restart do, to the webhook run as the generated Deployment runs it: a
// process of its own, over TLS, given the container's 128 MiB limit, from
// which it sets its Go limit (80%) and its in-flight budget. Every answer
// must be the right one, after retrying 429s as the API server's client
// does, and the process's peak RSS, which the kubelet kills it on, must
// stay under peakBound, with room to spare under the limit. Without the
// budget, each of the 64 requests holds its body, tapes and response at
// once, some 600 MB; with the Go limit at the container's, the heap lived at
// the limit, and the peak RSS came within 6–8 MiB of it.
//
// The clients run in the test's process, so that their memory is not
// counted, and hash each answer as it arrives rather than hold it.
func TestLoadStaysUnderTheMemoryLimit(t *testing.T) {
	if testing.Short() {
		t.Skip("a 10 s load test; skipped with -short")
	}
	if runtime.GOOS != "linux" {
		t.Skip("reads the webhook's peak RSS from /proc")
	}
	body := largeReview()
	h, err := webhook.NewHandler(webhook.HandlerOptions{}, boxKind())
	if err != nil {
		t.Fatal(err)
	}
	want := sha256.Sum256(post(h, string(body)).Body.Bytes())
	pki := testkit.NewPKI(t)
	srv := startServer(t, pki)
	const clients, duration = 64, 10 * time.Second
	tr := &http.Transport{MaxIdleConnsPerHost: clients, TLSClientConfig: &tls.Config{RootCAs: pki.CAPool}}
	defer tr.CloseIdleConnections()
	client := &http.Client{Transport: tr, Timeout: 60 * time.Second}
	url := "https://" + srv.addr
	var ok, retried, failed atomic.Int64
	var firstFailure atomic.Value
	var wg sync.WaitGroup
	end := time.Now().Add(duration)
	for n := 0; n < clients; n++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for time.Now().Before(end) {
				switch code, sum, err := send(client, url, body); {
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
	most := peakRSS(t, srv.cmd.Process.Pid)
	t.Logf("%d clients, %d-byte reviews for %s: %d answered right, %d retried after 429; the webhook's peak RSS was %.1f MiB, the limit is %d MiB",
		clients, len(body), duration, ok.Load(), retried.Load(), float64(most)/(1<<20), deploymentMemoryLimit>>20)
	if f := failed.Load(); f > 0 {
		t.Errorf("%d requests failed, the first: %v", f, firstFailure.Load())
	}
	if ok.Load() == 0 {
		t.Error("no review was answered")
	}
	if most > peakBound {
		t.Errorf("the webhook's peak RSS was %.1f MiB, over %d MiB: too close to the %d MiB limit", float64(most)/(1<<20), peakBound>>20, deploymentMemoryLimit>>20)
	}
}

// send posts one review and hashes the answer as it comes.
func send(client *http.Client, url string, body []byte) (int, [sha256.Size]byte, error) {
	var sum [sha256.Size]byte
	resp, err := client.Post(url+"/convert", "application/json", bytes.NewReader(body))
	if err != nil {
		return 0, sum, err
	}
	defer func() { _ = resp.Body.Close() }() // read to the end below
	hash := sha256.New()
	if _, err := io.Copy(hash, resp.Body); err != nil {
		return resp.StatusCode, sum, err
	}
	copy(sum[:], hash.Sum(nil))
	return resp.StatusCode, sum, nil
}
