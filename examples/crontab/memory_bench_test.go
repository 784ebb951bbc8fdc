package crontab_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/go-logr/logr"
	kruntime "k8s.io/apimachinery/pkg/runtime"
	ctrllog "sigs.k8s.io/controller-runtime/pkg/log"
	ctrlwebhook "sigs.k8s.io/controller-runtime/pkg/webhook"
	ctrlconversion "sigs.k8s.io/controller-runtime/pkg/webhook/conversion"

	v1 "github.com/crdforge/crdforge/examples/crontab/api/v1"
	"github.com/crdforge/crdforge/examples/crontab/api/v1beta1"
)

// containerMemoryLimit is the generated Deployment's memory limit, which it
// gives crdforge's webhook in CRDFORGE_CONTAINER_MEMORY_LIMIT.
const containerMemoryLimit = 128 << 20

// loadDuration is how long the clients of one measurement send reviews.
const loadDuration = 10 * time.Second

// controllerRuntimeEnv, set in the environment to "port,certDir", makes the
// test binary controller-runtime's conversion webhook (TestMain).
const controllerRuntimeEnv = "CRONTAB_CONTROLLER_RUNTIME_WEBHOOK"

func TestMain(m *testing.M) {
	if spec := os.Getenv(controllerRuntimeEnv); spec != "" {
		os.Exit(serveControllerRuntime(spec))
	}
	os.Exit(m.Run())
}

// serveControllerRuntime serves controller-runtime's conversion handler on
// the CronTab types, whose generated ConvertTo and ConvertFrom it calls, as
// a kubebuilder project's manager does: its webhook server, over TLS, with
// the certificate of certDir, until SIGINT or SIGTERM. It logs nothing, as
// a manager logging at info level logs nothing per conversion.
func serveControllerRuntime(spec string) int {
	portText, certDir, _ := strings.Cut(spec, ",")
	port, err := strconv.Atoi(portText)
	if err != nil {
		fmt.Fprintf(os.Stderr, "%s=%q: %v\n", controllerRuntimeEnv, spec, err)
		return 2
	}
	ctrllog.SetLogger(logr.New(ctrllog.NullLogSink{}))
	scheme := kruntime.NewScheme()
	for _, add := range []func(*kruntime.Scheme) error{v1.AddToScheme, v1beta1.AddToScheme} {
		if err := add(scheme); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
	}
	srv := ctrlwebhook.NewServer(ctrlwebhook.Options{Host: "127.0.0.1", Port: port, CertDir: certDir})
	srv.Register("/convert", ctrlconversion.NewWebhookHandler(scheme, ctrlconversion.NewRegistry()))
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := srv.Start(ctx); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

// storedCronTab is the i-th v1 CronTab as the API server stores it and
// sends it in a ConversionReview: labels, a generation and the managedFields
// of the kubectl apply that created it.
func storedCronTab(i int) string {
	const managedFields = `"managedFields":[{"manager":"kubectl-client-side-apply","operation":"Update","apiVersion":"example.com/v1",` +
		`"time":"2030-01-02T03:04:05Z","fieldsType":"FieldsV1","fieldsV1":{"f:metadata":{"f:labels":{".":{},"f:app":{}}},` +
		`"f:host":{},"f:port":{},"f:spec":{".":{},"f:cronSpec":{},"f:image":{},"f:replicas":{}}}}]`
	name := fmt.Sprintf("crontab-%d", i)
	return `{"apiVersion":"example.com/v1","kind":"CronTab","metadata":{"name":"` + name + `","namespace":"default","uid":"u-` + name +
		`","resourceVersion":"12345","generation":1,"creationTimestamp":"2030-01-02T03:04:05Z","labels":{"app":"crontabs"},` + managedFields +
		`},"host":"host-` + strconv.Itoa(i) + `.example","port":"1234","spec":{"cronSpec":"*/5 * * * *","image":"my-cron-image:1.0","replicas":2}}`
}

// largeCronTabReview is a ConversionReview of stored v1 CronTabs asked at
// v1beta1, as a client reading v1beta1 makes the API server send, just
// under the API server's 3 MiB request limit.
func largeCronTabReview(tb testing.TB) []byte {
	var objs []json.RawMessage
	for size, i := 0, 0; size < 3<<20-1024; i++ {
		objs = append(objs, json.RawMessage(storedCronTab(i)))
		size += len(objs[i]) + 1
	}
	b, err := json.Marshal(map[string]any{
		"apiVersion": "apiextensions.k8s.io/v1", "kind": "ConversionReview",
		"request": map[string]any{"uid": "705ab4f5-6393-11e8-b7cc-42010a800002", "desiredAPIVersion": "example.com/v1beta1", "objects": objs},
	})
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

// measured is a webhook under measurement, run in a process of its own.
type measured struct {
	cmd  *exec.Cmd
	addr string // host:port of its HTTPS endpoint
}

// stop kills the process and waits for it: its memory is freed before the
// next measurement starts, and a process already gone is no error here.
func (m *measured) stop() {
	_ = m.cmd.Process.Kill()
	_ = m.cmd.Wait()
}

// webhookServer is one of the webhooks measured side by side: start runs a
// fresh process of it serving with the certificate of certDir, so that its
// peak RSS is that of one load alone.
type webhookServer struct {
	name  string
	start func(b *testing.B, certDir string) *measured
}

// crdforgeServer is the generated webhook main, bin, run as the generated
// Deployment runs it: its flags, the container's memory limit in
// CRDFORGE_CONTAINER_MEMORY_LIMIT, and neither GOGC nor GOMEMLIMIT.
func crdforgeServer(bin string) webhookServer {
	return webhookServer{name: "crdforge", start: func(b *testing.B, certDir string) *measured {
		cmd := exec.Command(bin, "--cert-dir="+certDir, "--bind-address=127.0.0.1", "--port=0",
			"--metrics-bind-address=127.0.0.1:0", "--health-probe-bind-address=127.0.0.1:0", "--shutdown-grace-period=0")
		cmd.Env = append(asDeployed(os.Environ()), "CRDFORGE_CONTAINER_MEMORY_LIMIT="+strconv.Itoa(containerMemoryLimit))
		stderr, err := cmd.StderrPipe()
		if err != nil {
			b.Fatal(err)
		}
		m := startMeasured(b, cmd)
		m.addr = waitForAddr(b, stderr)
		return m
	}}
}

// controllerRuntimeServer is this test binary as controller-runtime's
// conversion webhook (TestMain), with the environment crdforge's gets but
// its memory limit, which controller-runtime does not read.
func controllerRuntimeServer() webhookServer {
	return webhookServer{name: "controller-runtime", start: func(b *testing.B, certDir string) *measured {
		port := freePort(b)
		cmd := exec.Command(os.Args[0], "-test.run=^$", "-test.bench=^$")
		cmd.Env = append(asDeployed(os.Environ()), controllerRuntimeEnv+"="+port+","+certDir)
		cmd.Stderr = os.Stderr // nothing, unless it fails
		m := startMeasured(b, cmd)
		m.addr = "127.0.0.1:" + port
		waitUntilServing(b, m.addr)
		return m
	}}
}

// startMeasured starts cmd, to be stopped by the caller, or when the
// benchmark ends if it fails first.
func startMeasured(b *testing.B, cmd *exec.Cmd) *measured {
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	m := &measured{cmd: cmd}
	b.Cleanup(m.stop)
	return m
}

// asDeployed is env without the Go runtime's GOGC and GOMEMLIMIT, which
// neither the generated Deployment nor kubebuilder's sets; the Makefile sets
// both for the go commands it runs, and make bench sets GOMEMLIMIT=off,
// which crdforge's webhook would take for the user's choice of no limit.
func asDeployed(env []string) []string {
	return slices.DeleteFunc(slices.Clone(env), func(kv string) bool {
		return strings.HasPrefix(kv, "GOGC=") || strings.HasPrefix(kv, "GOMEMLIMIT=")
	})
}

// freePort is a port free on loopback now, for a process to listen on.
func freePort(b *testing.B) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	defer func() { _ = ln.Close() }() // closed to free the port for the child
	return strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
}

// waitUntilServing waits until addr completes a TLS handshake, which
// controller-runtime's server does once it serves.
func waitUntilServing(b *testing.B, addr string) {
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		// Unverified: this only waits for a handshake; the clients verify.
		conn, err := tls.Dial("tcp", addr, &tls.Config{InsecureSkipVerify: true})
		if err == nil {
			_ = conn.Close() // a probe's connection
			return
		}
	}
	b.Fatalf("nothing served on %s within 30s", addr)
}

// peakRSS is the process's peak resident set size (VmHWM), what the
// kubelet's memory limit holds a container to.
func peakRSS(b *testing.B, pid int) uint64 {
	status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		b.Fatal(err)
	}
	for _, line := range strings.Split(string(status), "\n") {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, err := strconv.ParseUint(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			if err != nil {
				b.Fatal(err)
			}
			return kb << 10
		}
	}
	b.Fatalf("/proc/%d/status has no VmHWM", pid)
	return 0
}

// load is what the clients of one measurement saw.
type load struct {
	right, retried, failed int64
	firstFailure           string
	elapsed                time.Duration // until the last client's last answer
}

// sendFor has clients each post body to url, one review after another,
// for d, and counts the answers: right when the answer's hash is want; a
// 429 is retried after its Retry-After (one second), as the API server's
// client retries it. Answers are hashed as they arrive, not kept, so that
// the clients' memory stays small beside the servers'.
func sendFor(client *http.Client, url string, body []byte, want [sha256.Size]byte, clients int, d time.Duration) load {
	var right, retried, failed atomic.Int64
	var firstFailure atomic.Value
	var wg sync.WaitGroup
	start := time.Now()
	end := start.Add(d)
	for range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for time.Now().Before(end) {
				switch code, sum, err := send(client, url, body); {
				case err == nil && code == http.StatusOK && sum == want:
					right.Add(1)
				case err == nil && code == http.StatusTooManyRequests:
					retried.Add(1)
					time.Sleep(time.Second)
				default:
					failed.Add(1)
					firstFailure.CompareAndSwap(nil, fmt.Sprintf("status %d, right answer %t, error %v", code, sum == want, err))
				}
			}
		}()
	}
	wg.Wait()
	l := load{right: right.Load(), retried: retried.Load(), failed: failed.Load(), elapsed: time.Since(start)}
	if f, ok := firstFailure.Load().(string); ok {
		l.firstFailure = f
	}
	return l
}

// send posts one review and hashes the answer as it comes.
func send(client *http.Client, url string, body []byte) (int, [sha256.Size]byte, error) {
	var sum [sha256.Size]byte
	resp, err := client.Post(url, "application/json", bytes.NewReader(body))
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

// convertedObjects decodes a ConversionReview answer's objects, failing
// unless it is a success.
func convertedObjects(tb testing.TB, answer []byte) []any {
	var review struct {
		Response struct {
			Result           struct{ Status, Message string }
			ConvertedObjects []any
		}
	}
	if err := json.Unmarshal(answer, &review); err != nil || review.Response.Result.Status != "Success" {
		tb.Fatalf("not a successful ConversionReview (%v): %.300s", err, answer)
	}
	return review.Response.ConvertedObjects
}

// wantObjects is what controller-runtime's handler answers body with in
// this process: the objects every server measured must answer.
func wantObjects(b *testing.B, body []byte) []any {
	scheme := kruntime.NewScheme()
	for _, add := range []func(*kruntime.Scheme) error{v1.AddToScheme, v1beta1.AddToScheme} {
		if err := add(scheme); err != nil {
			b.Fatal(err)
		}
	}
	w := httptest.NewRecorder()
	ctrlconversion.NewWebhookHandler(scheme, ctrlconversion.NewRegistry()).ServeHTTP(w, httptest.NewRequest(http.MethodPost, "/convert", bytes.NewReader(body)))
	return convertedObjects(b, w.Body.Bytes())
}

// firstAnswer posts body once, checks the answer's objects are want, and
// returns the answer's hash, which every answer under load must have.
func firstAnswer(b *testing.B, client *http.Client, url string, body []byte, want []any) [sha256.Size]byte {
	resp, err := client.Post(url, "application/json", bytes.NewReader(body))
	if err != nil {
		b.Fatal(err)
	}
	answer, err := io.ReadAll(resp.Body)
	if err = errors.Join(err, resp.Body.Close()); err != nil || resp.StatusCode != http.StatusOK {
		b.Fatalf("status %d, %v: %.300s", resp.StatusCode, err, answer)
	}
	if got := convertedObjects(b, answer); !reflect.DeepEqual(got, want) {
		b.Fatalf("the answer's %d objects are not controller-runtime's %d in this process", len(got), len(want))
	}
	return sha256.Sum256(answer)
}

// clientFor is an HTTP/1.1 client trusting pool with a connection for each
// of clients, so that each has its own review in flight: kubebuilder's
// scaffold serves webhooks without HTTP/2, and crdforge's webhook serves
// HTTP/1.1.
func clientFor(pool *x509.CertPool, clients int) *http.Client {
	tr := &http.Transport{MaxIdleConnsPerHost: clients, TLSClientConfig: &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12}}
	return &http.Client{Transport: tr, Timeout: 2 * time.Minute}
}

// measure runs a fresh process of srv, sends it reviews from clients for
// loadDuration, and returns its peak RSS and what the clients saw.
func measure(b *testing.B, srv webhookServer, certDir string, pool *x509.CertPool, body []byte, want []any, clients int) (uint64, load) {
	m := srv.start(b, certDir)
	defer m.stop()
	client := clientFor(pool, clients)
	defer client.CloseIdleConnections()
	url := "https://" + m.addr + "/convert"
	hash := firstAnswer(b, client, url, body, want)
	l := sendFor(client, url, body, hash, clients, loadDuration)
	return peakRSS(b, m.cmd.Process.Pid), l
}

// BenchmarkWebhookPeakRSS measures, side by side in one run, the peak RSS
// (VmHWM) of crdforge's generated webhook, run as deployed (a 128 MiB
// container limit, its in-flight budget and Go limit derived from it), and
// of controller-runtime's conversion handler on the same types (its
// webhook server, default GOGC and no limit, as kubebuilder deploys it),
// each a process of its own over TLS, while 1, 4, 16 and 64 clients send
// the same 3 MiB ConversionReview of stored v1 CronTabs asked at v1beta1
// for 10 s. It reports per server and concurrency the peak RSS in MiB,
// right answers per second and 429s retried; every answer must be right,
// and at each concurrency crdforge's peak must be below
// controller-runtime's (issue 59's claim). Each iteration is a fresh
// process: run with -benchtime 1x.
func BenchmarkWebhookPeakRSS(b *testing.B) {
	if runtime.GOOS != "linux" {
		b.Skip("reads the webhooks' peak RSS from /proc")
	}
	dir := b.TempDir()
	bin := filepath.Join(dir, "webhook")
	if out, err := exec.Command("go", "build", "-o", bin, "./cmd/webhook").CombinedOutput(); err != nil {
		b.Fatalf("go build ./cmd/webhook: %v\n%s", err, out)
	}
	pool := writeServingCert(b, dir)
	body := largeCronTabReview(b)
	want := wantObjects(b, body)
	b.Logf("reviews of %d bytes, %d CronTabs; load average %s", len(body), len(want), loadAverage())
	servers := []webhookServer{crdforgeServer(bin), controllerRuntimeServer()}
	for _, clients := range []int{1, 4, 16, 64} {
		peaks := map[string]uint64{}
		for _, srv := range servers {
			b.Run(fmt.Sprintf("clients=%d/server=%s", clients, srv.name), func(b *testing.B) {
				peaks[srv.name] = measureAndReport(b, srv, dir, pool, body, want, clients)
			})
		}
		crdforge, cr, both := peaks["crdforge"], peaks["controller-runtime"], len(peaks) == len(servers)
		if both && crdforge >= cr {
			b.Errorf("%d clients: crdforge's webhook peaked at %.1f MiB, controller-runtime's at %.1f MiB", clients, mib(crdforge), mib(cr))
		}
	}
	b.Logf("load average at the end %s", loadAverage())
}

// measureAndReport measures srv b.N times, reports the highest peak RSS,
// the right answers per second and the 429s per measurement, and returns
// the highest peak.
func measureAndReport(b *testing.B, srv webhookServer, certDir string, pool *x509.CertPool, body []byte, want []any, clients int) uint64 {
	var peak uint64
	var all load
	for range b.N {
		p, l := measure(b, srv, certDir, pool, body, want, clients)
		peak = max(peak, p)
		all.right, all.retried, all.elapsed = all.right+l.right, all.retried+l.retried, all.elapsed+l.elapsed
		if l.failed > 0 {
			b.Errorf("%d of the reviews failed, the first: %s", l.failed, l.firstFailure)
		}
	}
	b.ReportMetric(0, "ns/op") // the time of a fixed load says nothing
	b.ReportMetric(mib(peak), "peak-RSS-MiB")
	b.ReportMetric(float64(all.right)/all.elapsed.Seconds(), "answers/s")
	b.ReportMetric(float64(all.retried)/float64(b.N), "429s/op")
	return peak
}

// mib is n bytes in MiB.
func mib(n uint64) float64 { return float64(n) / (1 << 20) }

// loadAverage is the machine's load average over 1, 5 and 15 minutes, for
// the record: the two servers share the machine with the clients, and a
// shared machine with whatever else runs.
func loadAverage() string {
	avg, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	return strings.Join(strings.Fields(string(avg))[:3], " ")
}
