package server_test

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/big"
	"net"
	"net/http"
	"net/http/httptrace"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/crdforge/crdforge/webhook/internal/metrics"
	"github.com/crdforge/crdforge/webhook/internal/server"
	"github.com/crdforge/crdforge/webhook/internal/testkit"
)

func mustMetrics(t *testing.T, reg prometheus.Registerer) *metrics.Metrics {
	t.Helper()
	m, err := metrics.New(reg)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// testServer is a server.Server running on loopback ports that the system
// picked.
type testServer struct {
	srv     *server.Server
	url     string // the webhook's base URL
	health  string // base URL of the health probes, "" when disabled
	metrics string // base URL of /metrics, "" when disabled
	logs    *testkit.Logs
	cancel  context.CancelFunc

	finished chan struct{} // closed when Run returns
	err      error         // what Run returned
}

// startServer runs a Server for h until the test ends. Unset addresses are
// 127.0.0.1:0, so metrics and probes share a port. It returns once /readyz
// answers 200, when probes are enabled.
func startServer(t *testing.T, h http.Handler, opts server.Options) *testServer {
	t.Helper()
	log, logs := testkit.NewLogger()
	if opts.Logger == nil {
		opts.Logger = log
	}
	for _, addr := range []*string{&opts.Addr, &opts.MetricsAddr, &opts.HealthAddr} {
		if *addr == "" {
			*addr = "127.0.0.1:0"
		}
	}
	if opts.CertPollInterval == 0 {
		opts.CertPollInterval = 10 * time.Millisecond
	}
	if opts.DrainGrace == 0 {
		opts.DrainGrace = -1 // no grace period unless a test is about it
	}
	srv, err := server.New(h, opts)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	ts := &testServer{srv: srv, logs: logs, cancel: cancel, finished: make(chan struct{})}
	go func() {
		ts.err = srv.Run(ctx)
		close(ts.finished)
	}()
	t.Cleanup(func() {
		cancel()
		select {
		case <-ts.finished:
		case <-time.After(30 * time.Second):
			t.Error("Run did not return after cancellation")
		}
	})
	scheme := "https://"
	if opts.InsecureHTTP {
		scheme = "http://"
	}
	ts.url = scheme + srv.Addr().String()
	if a := srv.MetricsAddr(); a != nil {
		ts.metrics = "http://" + a.String()
	}
	if a := srv.HealthAddr(); a != nil {
		ts.health = "http://" + a.String()
		testkit.WaitUntil(t, "the server is ready", 10*time.Second, func() bool {
			code, _, _ := get(plainClient, ts.health+"/readyz")
			return code == http.StatusOK
		})
	}
	return ts
}

// stop cancels the server's context and returns what Run returned.
func (ts *testServer) stop(t *testing.T) error {
	t.Helper()
	ts.cancel()
	return ts.wait(t)
}

func (ts *testServer) wait(t *testing.T) error {
	t.Helper()
	select {
	case <-ts.finished:
		return ts.err
	case <-time.After(30 * time.Second):
		t.Fatal("Run did not return")
		return nil
	}
}

var plainClient = &http.Client{Timeout: 10 * time.Second}

// tlsClient trusts the test CA; mod adjusts its TLS configuration.
func tlsClient(t *testing.T, pki *testkit.PKI, mod func(*tls.Config)) *http.Client {
	conf := &tls.Config{RootCAs: pki.CAPool}
	if mod != nil {
		mod(conf)
	}
	tr := &http.Transport{TLSClientConfig: conf, ForceAttemptHTTP2: true, MaxIdleConnsPerHost: 32}
	t.Cleanup(tr.CloseIdleConnections)
	return &http.Client{Transport: tr, Timeout: 30 * time.Second}
}

func get(c *http.Client, url string) (int, string, error) {
	resp, err := c.Get(url)
	if err != nil {
		return 0, "", err
	}
	body, err := testkit.ReadBody(resp)
	return resp.StatusCode, string(body), err
}

// freshSerial is the serial number of the certificate that a new TLS
// connection to addr gets.
func freshSerial(t *testing.T, pki *testkit.PKI, addr string) *big.Int {
	t.Helper()
	conn, err := tls.Dial("tcp", addr, &tls.Config{RootCAs: pki.CAPool})
	if err != nil {
		t.Fatalf("new TLS connection: %v", err)
	}
	// Only the handshake was wanted: the close's error has nothing to say.
	defer func() { _ = conn.Close() }()
	return conn.ConnectionState().PeerCertificates[0].SerialNumber
}

// okHandler answers "ok". Like the other test handlers, it drops the
// write's error: a body that does not go out fails the client's request,
// which the tests check.
var okHandler = http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
	_, _ = io.WriteString(w, "ok")
})

func TestServerServesTheHandlerOverTLS(t *testing.T) {
	pki := testkit.NewPKI(t)
	ts := startServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = fmt.Fprintf(w, "%s %s", r.Method, r.URL.Path)
	}), server.Options{CertDir: testkit.CertDir(t, pki.Serving1)})

	resp, err := tlsClient(t, pki, nil).Post(ts.url+"/convert", "application/json", strings.NewReader("{}"))
	if err != nil {
		t.Fatal(err)
	}
	body, err := testkit.ReadBody(resp)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK || string(body) != "POST /convert" {
		t.Errorf("got %d %q", resp.StatusCode, body)
	}
	if resp.TLS == nil || resp.TLS.PeerCertificates[0].SerialNumber.Cmp(pki.Serving1.Serial) != 0 {
		t.Errorf("not served with the certificate from the cert dir: %+v", resp.TLS)
	}
	// HTTP/1.1 only, even to a client that offers HTTP/2.
	if resp.ProtoMajor != 1 || resp.TLS.NegotiatedProtocol == "h2" {
		t.Errorf("served over %s (ALPN %q), want HTTP/1.1", resp.Proto, resp.TLS.NegotiatedProtocol)
	}
	// Plain HTTP to the HTTPS port is refused.
	if code, _, err := get(plainClient, "http://"+ts.srv.Addr().String()+"/convert"); err == nil && code == http.StatusOK {
		t.Error("plain HTTP was served on the HTTPS port")
	}
	for _, want := range []string{`"msg":"serving the conversion webhook"`, `"tls":true`, `"mtls":false`, `"msg":"loaded serving certificate"`} {
		if !ts.logs.Contains(want) {
			t.Errorf("the logs lack %s:\n%s", want, ts.logs)
		}
	}
}

func TestServerTLSVersions(t *testing.T) {
	pki := testkit.NewPKI(t)
	ts := startServer(t, okHandler, server.Options{CertDir: testkit.CertDir(t, pki.Serving1)})
	for _, tc := range []struct {
		version uint16
		ok      bool
	}{
		{tls.VersionTLS10, false},
		{tls.VersionTLS11, false},
		{tls.VersionTLS12, true},
		{tls.VersionTLS13, true},
	} {
		t.Run(tls.VersionName(tc.version), func(t *testing.T) {
			c := tlsClient(t, pki, func(c *tls.Config) { c.MinVersion, c.MaxVersion = tc.version, tc.version })
			resp, err := c.Get(ts.url)
			if !tc.ok {
				if err == nil {
					_ = resp.Body.Close() // failing either way
					t.Fatalf("a %s client was served", tls.VersionName(tc.version))
				}
				if !strings.Contains(err.Error(), "protocol version") {
					t.Errorf("refused, but not for its protocol version: %v", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if _, err := testkit.ReadBody(resp); err != nil {
				t.Fatal(err)
			}
			if resp.StatusCode != http.StatusOK || resp.TLS.Version != tc.version {
				t.Errorf("got %d over %s", resp.StatusCode, tls.VersionName(resp.TLS.Version))
			}
		})
	}
}

func TestServerMutualTLS(t *testing.T) {
	pki := testkit.NewPKI(t)
	ts := startServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.WriteString(w, r.TLS.PeerCertificates[0].Subject.CommonName)
	}), server.Options{CertDir: testkit.CertDir(t, pki.Serving1), ClientCAFile: pki.CAFile})
	if !ts.logs.Contains(`"mtls":true`) {
		t.Errorf("mTLS not logged:\n%s", ts.logs)
	}

	for _, version := range []uint16{tls.VersionTLS12, tls.VersionTLS13} {
		t.Run(tls.VersionName(version), func(t *testing.T) {
			only := func(c *tls.Config) { c.MinVersion, c.MaxVersion = version, version }
			for name, cert := range map[string]*tls.Certificate{"no client certificate": nil, "certificate from another CA": &pki.Stranger} {
				c := tlsClient(t, pki, func(c *tls.Config) {
					only(c)
					if cert != nil {
						c.Certificates = []tls.Certificate{*cert}
					}
				})
				if code, _, err := get(c, ts.url); err == nil {
					t.Errorf("%s: served with status %d", name, code)
				}
			}
			c := tlsClient(t, pki, func(c *tls.Config) {
				only(c)
				c.Certificates = []tls.Certificate{pki.Client}
			})
			code, body, err := get(c, ts.url)
			if err != nil || code != http.StatusOK || body != "kube-apiserver" {
				t.Errorf("with the CA-signed client certificate: %d %q %v", code, body, err)
			}
		})
	}
}

func TestServerRotatesTheCertificateUnderLoad(t *testing.T) {
	pki := testkit.NewPKI(t)
	dir := t.TempDir()
	testkit.WriteSecretVolume(t, dir, pki.Serving1)
	ts := startServer(t, okHandler, server.Options{CertDir: dir})
	addr := ts.srv.Addr().String()
	client := tlsClient(t, pki, nil)

	const workers = 8
	var (
		stop          = make(chan struct{})
		wg            sync.WaitGroup
		rotated       atomic.Bool
		requests      atomic.Int64
		oldAfterSwap  atomic.Int64 // requests over kept-alive connections with the old certificate, after the swap
		newConnSerial atomic.Int64 // requests over connections with the new certificate
		failures      atomic.Int64
		firstFailure  atomic.Value
	)
	fail := func(err error) {
		failures.Add(1)
		firstFailure.CompareAndSwap(nil, err.Error())
	}
	for n := 0; n < workers; n++ {
		spawn(&wg, func() {
			for {
				select {
				case <-stop:
					return
				default:
				}
				var reused bool
				ctx := httptrace.WithClientTrace(context.Background(), &httptrace.ClientTrace{
					GotConn: func(info httptrace.GotConnInfo) { reused = info.Reused },
				})
				afterSwap := rotated.Load()
				req, _ := http.NewRequestWithContext(ctx, http.MethodGet, ts.url, nil)
				resp, err := client.Do(req)
				if err != nil {
					fail(err)
					continue
				}
				body, err := testkit.ReadBody(resp)
				if err != nil || resp.StatusCode != http.StatusOK || string(body) != "ok" {
					fail(fmt.Errorf("status %d, body %q, error %v", resp.StatusCode, body, err))
					continue
				}
				requests.Add(1)
				switch serial := resp.TLS.PeerCertificates[0].SerialNumber; {
				case serial.Cmp(pki.Serving2.Serial) == 0:
					newConnSerial.Add(1)
				case afterSwap && reused:
					oldAfterSwap.Add(1)
				}
			}
		})
	}
	defer func() {
		select {
		case <-stop:
		default:
			close(stop)
		}
		wg.Wait()
	}()

	testkit.WaitUntil(t, "requests flow", 10*time.Second, func() bool { return requests.Load() >= 100 })
	testkit.WriteSecretVolume(t, dir, pki.Serving2)
	testkit.WaitUntil(t, "a new connection gets the new certificate", 10*time.Second, func() bool {
		return freshSerial(t, pki, addr).Cmp(pki.Serving2.Serial) == 0
	})
	rotated.Store(true)
	testkit.WaitUntil(t, "old keep-alive connections keep serving after the swap", 10*time.Second, func() bool {
		return oldAfterSwap.Load() >= 100
	})
	// Connections made from now on, under load, get the new certificate.
	client.CloseIdleConnections()
	testkit.WaitUntil(t, "the clients' new connections serve the new certificate", 10*time.Second, func() bool {
		return newConnSerial.Load() >= 100
	})
	close(stop)
	wg.Wait()

	if n := failures.Load(); n > 0 {
		t.Fatalf("%d of %d requests failed during the rotation, the first: %v", n, requests.Load()+n, firstFailure.Load())
	}
	if !ts.logs.Contains(`"msg":"reloaded serving certificate"`) {
		t.Errorf("the reload was not logged:\n%s", ts.logs)
	}
	t.Logf("%d requests, none failed; %d over kept-alive connections with the old certificate after the swap, %d with the new one",
		requests.Load(), oldAfterSwap.Load(), newConnSerial.Load())
}

func TestServerKeepsTheOldCertificateWhenTheNewPairIsBroken(t *testing.T) {
	pki := testkit.NewPKI(t)
	dir := testkit.CertDir(t, pki.Serving1)
	ts := startServer(t, okHandler, server.Options{CertDir: dir})
	addr := ts.srv.Addr().String()
	client := tlsClient(t, pki, nil)

	// The new certificate with the old key.
	testkit.WritePair(t, dir, testkit.Pair{Cert: pki.Serving2.Cert, Key: pki.Serving1.Key})
	testkit.WaitUntil(t, "the broken pair is reported", 10*time.Second, func() bool {
		return ts.logs.Contains("cannot load the new serving certificate, keeping the previous one")
	})
	if got := freshSerial(t, pki, addr); got.Cmp(pki.Serving1.Serial) != 0 {
		t.Errorf("a new connection got serial %v, want the old %v", got, pki.Serving1.Serial)
	}
	if code, _, err := get(client, ts.url); err != nil || code != http.StatusOK {
		t.Errorf("with a broken pair on disk: %d %v", code, err)
	}
	// A garbage certificate file.
	if err := os.WriteFile(filepath.Join(dir, "tls.crt"), []byte("garbage"), 0o600); err != nil {
		t.Fatal(err)
	}
	testkit.WaitUntil(t, "the garbage is reported", 10*time.Second, func() bool {
		return strings.Count(ts.logs.String(), "keeping the previous one") >= 2
	})
	if got := freshSerial(t, pki, addr); got.Cmp(pki.Serving1.Serial) != 0 {
		t.Errorf("a new connection got serial %v, want the old %v", got, pki.Serving1.Serial)
	}

	// Once the pair is whole, it is served.
	testkit.WritePair(t, dir, pki.Serving2)
	testkit.WaitUntil(t, "the repaired pair is served", 10*time.Second, func() bool {
		return freshSerial(t, pki, addr).Cmp(pki.Serving2.Serial) == 0
	})
	if code, _, err := get(client, ts.url); err != nil || code != http.StatusOK {
		t.Errorf("after the repair: %d %v", code, err)
	}
}

func TestServerHealthAndReadinessProbes(t *testing.T) {
	pki := testkit.NewPKI(t)
	ts := startServer(t, okHandler, server.Options{CertDir: testkit.CertDir(t, pki.Serving1), MetricsAddr: "0"})
	if ts.srv.MetricsAddr() != nil {
		t.Errorf("metrics disabled, yet listening on %v", ts.srv.MetricsAddr())
	}
	for _, path := range []string{"/healthz", "/readyz"} {
		if code, body, err := get(plainClient, ts.health+path); err != nil || code != http.StatusOK || body != "ok\n" {
			t.Errorf("%s: %d %q %v", path, code, body, err)
		}
	}
	if code, _, _ := get(plainClient, ts.health+"/metrics"); code != http.StatusNotFound {
		t.Errorf("/metrics on the probe port, with metrics disabled: %d", code)
	}
}

func TestServerMetricsEndpoint(t *testing.T) {
	pki := testkit.NewPKI(t)
	reg := metrics.NewRegistry()
	m := mustMetrics(t, reg)
	ts := startServer(t, http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		start := time.Now()
		m.ObjectsConverted(2)
		m.ObjectFailed()
		m.Failure("unknown_kind")
		w.WriteHeader(http.StatusOK)
		m.ObserveRequest(http.StatusOK, time.Since(start))
	}), server.Options{CertDir: testkit.CertDir(t, pki.Serving1), Registry: reg})
	if code, _, err := get(tlsClient(t, pki, nil), ts.url); err != nil || code != http.StatusOK {
		t.Fatalf("%d %v", code, err)
	}
	// Metrics and probes share 127.0.0.1:0, hence one server.
	if ts.metrics != ts.health {
		t.Errorf("metrics on %s, probes on %s: one address, two servers", ts.metrics, ts.health)
	}
	code, body, err := get(plainClient, ts.metrics+"/metrics")
	if err != nil || code != http.StatusOK {
		t.Fatalf("/metrics: %d %v", code, err)
	}
	for _, want := range []string{
		`crdforge_conversion_requests_total{code="200"} 1`,
		`crdforge_conversion_request_duration_seconds_count 1`,
		`crdforge_conversion_request_duration_seconds_bucket{le="0.0001"}`,
		`crdforge_conversion_request_duration_seconds_bucket{le="10"} 1`,
		`crdforge_conversion_objects_total{result="converted"} 2`,
		`crdforge_conversion_objects_total{result="failed"} 1`,
		`crdforge_conversion_failures_total{reason="unknown_kind"} 1`,
		`crdforge_conversion_failures_total{reason="panic"} 0`,
		"go_goroutines ",
	} {
		if !strings.Contains(body, want) {
			t.Errorf("/metrics lacks %s", want)
		}
	}
	if code, _, _ := get(plainClient, ts.health+"/healthz"); code != http.StatusOK {
		t.Errorf("/healthz next to /metrics: %d", code)
	}

	// Without a registry, a fresh one with the Go and process collectors.
	ts = startServer(t, okHandler, server.Options{CertDir: testkit.CertDir(t, pki.Serving1), HealthAddr: "0"})
	if ts.srv.HealthAddr() != nil {
		t.Errorf("probes disabled, yet listening on %v", ts.srv.HealthAddr())
	}
	testkit.WaitUntil(t, "/metrics answers", 10*time.Second, func() bool {
		code, body, _ = get(plainClient, ts.metrics+"/metrics")
		return code == http.StatusOK
	})
	if !strings.Contains(body, "go_goroutines ") || strings.Contains(body, "crdforge_") {
		t.Errorf("the default registry's metrics:\n%s", body)
	}
}

func TestServerGracefulShutdownDrainsInFlightRequests(t *testing.T) {
	pki := testkit.NewPKI(t)
	entered, release := make(chan struct{}), make(chan struct{})
	ts := startServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/block" {
			close(entered)
			<-release
		}
		_, _ = io.WriteString(w, "done")
	}), server.Options{CertDir: testkit.CertDir(t, pki.Serving1)})
	client := tlsClient(t, pki, nil)
	addr := ts.srv.Addr().String()

	type result struct {
		code int
		body string
		err  error
	}
	results := make(chan result, 1)
	go func() {
		code, body, err := get(client, ts.url+"/block")
		results <- result{code, body, err}
	}()
	select {
	case <-entered:
	case <-time.After(10 * time.Second):
		t.Fatal("the request did not reach the handler")
	}

	ts.cancel()
	testkit.WaitUntil(t, "/readyz answers 503", 10*time.Second, func() bool {
		code, body, _ := get(plainClient, ts.health+"/readyz")
		return code == http.StatusServiceUnavailable && body == "shutting down\n"
	})
	if code, _, err := get(plainClient, ts.health+"/healthz"); err != nil || code != http.StatusOK {
		t.Errorf("/healthz during shutdown: %d %v", code, err)
	}
	testkit.WaitUntil(t, "the webhook stops accepting connections", 10*time.Second, func() bool {
		conn, err := net.Dial("tcp", addr)
		if err == nil {
			_ = conn.Close() // only whether it connected matters
		}
		return err != nil
	})
	select {
	case <-ts.finished:
		t.Fatal("Run returned while a request was in flight")
	default:
	}

	close(release)
	select {
	case r := <-results:
		if r.err != nil || r.code != http.StatusOK || r.body != "done" {
			t.Errorf("the in-flight request: %d %q %v", r.code, r.body, r.err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the in-flight request did not complete")
	}
	if err := ts.wait(t); err != nil {
		t.Errorf("Run returned %v after a clean shutdown", err)
	}
	for _, want := range []string{"shutting down, draining in-flight requests", "shutdown complete"} {
		if !ts.logs.Contains(want) {
			t.Errorf("the logs lack %q:\n%s", want, ts.logs)
		}
	}
}

func TestServerShutdownTimeoutIsAnError(t *testing.T) {
	pki := testkit.NewPKI(t)
	entered, release := make(chan struct{}), make(chan struct{})
	defer close(release)
	var once sync.Once
	ts := startServer(t, http.HandlerFunc(func(http.ResponseWriter, *http.Request) {
		once.Do(func() { close(entered) })
		<-release
	}), server.Options{CertDir: testkit.CertDir(t, pki.Serving1), ShutdownTimeout: 50 * time.Millisecond})
	client := tlsClient(t, pki, nil)
	go func() {
		// The shutdown cuts this request off: what it returns is beside the
		// point, Run's error is checked.
		_, _, _ = get(client, ts.url)
	}()
	select {
	case <-entered:
	case <-time.After(10 * time.Second):
		t.Fatal("the request did not reach the handler")
	}
	if err := ts.stop(t); err == nil || !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Run returned %v with a request still running at the deadline", err)
	}
}

func TestServerRejectsBadOptions(t *testing.T) {
	pki := testkit.NewPKI(t)
	good := testkit.CertDir(t, pki.Serving1)
	mismatched := testkit.CertDir(t, testkit.Pair{Cert: pki.Serving1.Cert, Key: pki.Serving2.Key})
	notPEM := filepath.Join(t.TempDir(), "ca.crt")
	if err := os.WriteFile(notPEM, []byte("nothing"), 0o600); err != nil {
		t.Fatal(err)
	}
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := busy.Close(); err != nil {
			t.Error(err)
		}
	}()
	inUse := busy.Addr().String()

	base := server.Options{Addr: "127.0.0.1:0", MetricsAddr: "127.0.0.1:0", HealthAddr: "127.0.0.1:0", CertDir: good}
	for _, tc := range []struct {
		name string
		mod  func(*server.Options)
		want string
	}{
		{"no certificate", func(o *server.Options) { o.CertDir = t.TempDir() }, "no such file"},
		{"no key", func(o *server.Options) { o.KeyName = "absent.key" }, "absent.key"},
		{"mismatched pair", func(o *server.Options) { o.CertDir = mismatched }, "private key does not match"},
		{"missing client CA", func(o *server.Options) { o.ClientCAFile = filepath.Join(good, "ca.crt") }, "client CA"},
		{"client CA without certificates", func(o *server.Options) { o.ClientCAFile = notPEM }, "no PEM certificate"},
		{"client CA over plain HTTP", func(o *server.Options) { o.InsecureHTTP, o.ClientCAFile = true, pki.CAFile }, "needs TLS"},
		{"webhook address in use", func(o *server.Options) { o.Addr = inUse }, "address already in use"},
		{"metrics address in use", func(o *server.Options) { o.MetricsAddr = inUse }, "metrics listener"},
		{"health address in use", func(o *server.Options) { o.HealthAddr = inUse }, "health probe listener"},
		{"bad address", func(o *server.Options) { o.Addr = "127.0.0.1:http-alt-nope" }, "webhook listener"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			opts := base
			log, _ := testkit.NewLogger()
			opts.Logger = log
			tc.mod(&opts)
			// Cancelled already: should the options pass, Serve returns at once.
			ctx, cancel := context.WithCancel(context.Background())
			cancel()
			err := server.Serve(ctx, okHandler, opts)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("got error %v, want one mentioning %q", err, tc.want)
			}
		})
	}
}

func TestServerInsecureHTTP(t *testing.T) {
	ts := startServer(t, okHandler, server.Options{InsecureHTTP: true, CertDir: filepath.Join(t.TempDir(), "absent")})
	if code, body, err := get(plainClient, ts.url); err != nil || code != http.StatusOK || body != "ok" {
		t.Errorf("over plain HTTP: %d %q %v", code, body, err)
	}
	if !ts.logs.Contains("for local development only") || !ts.logs.Contains(`"tls":false`) {
		t.Errorf("plain HTTP was not warned about:\n%s", ts.logs)
	}
	if err := ts.stop(t); err != nil {
		t.Errorf("Run: %v", err)
	}
	if err := ts.srv.Run(context.Background()); err == nil {
		t.Error("a second Run succeeded")
	}
}

func TestOptionsWithDefaults(t *testing.T) {
	o := server.Options{}.WithDefaults()
	want := server.Options{
		Addr: ":9443", CertDir: "/tmp/k8s-webhook-server/serving-certs", CertName: "tls.crt", KeyName: "tls.key",
		MetricsAddr: "127.0.0.1:8080", HealthAddr: "127.0.0.1:8081",
		ReadHeaderTimeout: 10 * time.Second, ReadTimeout: 30 * time.Second, WriteTimeout: 30 * time.Second, IdleTimeout: 120 * time.Second,
		MaxHeaderBytes: 64 << 10, DrainGrace: 5 * time.Second, ShutdownTimeout: 30 * time.Second, CertPollInterval: time.Second,
		Logger: o.Logger,
	}
	if o != want {
		t.Errorf("defaults:\n got %+v\nwant %+v", o, want)
	}
	if o.Logger == nil || o.Registry != nil {
		t.Errorf("logger %v, registry %v", o.Logger, o.Registry)
	}
	set := server.Options{Addr: ":1", MetricsAddr: "0", ShutdownTimeout: time.Second}.WithDefaults()
	if set.Addr != ":1" || set.MetricsAddr != "0" || set.ShutdownTimeout != time.Second {
		t.Errorf("WithDefaults overrode set fields: %+v", set)
	}
}

// TestServerLoad drives the TLS server from 32 keep-alive clients, 1,000
// requests each, and requires every request to succeed. A number of
// requests rather than a time: the same work on any machine (about a second
// here, at some 23,000 requests a second).
func TestServerLoad(t *testing.T) {
	if testing.Short() {
		t.Skip("a load test; skipped with -short")
	}
	pki := testkit.NewPKI(t)
	reg := prometheus.NewRegistry()
	m := mustMetrics(t, reg)
	echo := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		var v map[string]any
		if err := json.NewDecoder(r.Body).Decode(&v); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			m.ObserveRequest(http.StatusBadRequest, time.Since(start))
			return
		}
		w.Header().Set("Content-Type", "application/json")
		// An echo that does not go out fails the client's request, which
		// the test counts.
		_ = json.NewEncoder(w).Encode(v)
		m.ObserveRequest(http.StatusOK, time.Since(start))
	})
	ts := startServer(t, echo, server.Options{CertDir: testkit.CertDir(t, pki.Serving1), Registry: reg})

	const clients, perClient = 32, 1000
	var dials atomic.Int64
	dialer := &net.Dialer{Timeout: 10 * time.Second, KeepAlive: 30 * time.Second}
	tr := &http.Transport{
		TLSClientConfig: &tls.Config{RootCAs: pki.CAPool},
		DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
			dials.Add(1)
			return dialer.DialContext(ctx, network, addr)
		},
		MaxIdleConns:        clients,
		MaxIdleConnsPerHost: clients,
		IdleConnTimeout:     90 * time.Second,
		TLSHandshakeTimeout: 10 * time.Second,
	}
	defer tr.CloseIdleConnections()
	client := &http.Client{Transport: tr, Timeout: 30 * time.Second}
	payload := strings.Repeat("x", 512)

	var (
		wg           sync.WaitGroup
		requests     atomic.Int64
		failures     atomic.Int64
		firstFailure atomic.Value
	)
	start := time.Now()
	for i := 0; i < clients; i++ {
		i := i // each client its own: the module is on Go 1.21's loop variables
		spawn(&wg, func() {
			for n := 0; n < perClient; n++ {
				req := fmt.Sprintf(`{"client":%d,"n":%d,"payload":%q}`, i, n, payload)
				resp, err := client.Post(ts.url+"/convert", "application/json", strings.NewReader(req))
				if err != nil {
					failures.Add(1)
					firstFailure.CompareAndSwap(nil, err.Error())
					continue
				}
				body, err := testkit.ReadBody(resp)
				if err != nil || resp.StatusCode != http.StatusOK || strings.TrimSpace(string(body)) != req {
					failures.Add(1)
					firstFailure.CompareAndSwap(nil, fmt.Sprintf("status %d, body %.100q, error %v", resp.StatusCode, body, err))
					continue
				}
				requests.Add(1)
			}
		})
	}
	wg.Wait()
	elapsed := time.Since(start)
	n := requests.Load()
	t.Logf("%d requests from %d keep-alive clients over %d TLS connections in %v: %.0f requests/s",
		n, clients, dials.Load(), elapsed.Round(time.Millisecond), float64(n)/elapsed.Seconds())
	if f := failures.Load(); f > 0 {
		t.Fatalf("%d of %d requests failed, the first: %v", f, n+f, firstFailure.Load())
	}
	if n == 0 {
		t.Fatal("no request completed")
	}
	if got := testkit.CounterValue(t, reg, "crdforge_conversion_requests_total", "code", "200"); got != float64(n) {
		t.Errorf("the server counted %v requests, the clients %d", got, n)
	}
}

// TestServerLosesNoKeepAliveRequestAcrossShutdown sends keep-alive load
// from many clients across the start of shutdown, as API servers holding
// pooled connections to a terminating pod do. Each client goes on until a
// response tells it the connection closes, as the API server's pool would
// drop that connection and, the pod having left the endpoints, dial another
// pod; none of its requests may fail. Without the grace period, Shutdown
// closes idle connections that a client is just sending on, and the
// listener, and requests fail.
func TestServerLosesNoKeepAliveRequestAcrossShutdown(t *testing.T) {
	if testing.Short() {
		t.Skip("a load test; skipped with -short")
	}
	pki := testkit.NewPKI(t)
	echo := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(r.Body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		_, _ = w.Write(body) // a short write fails the client's request, which the test counts
	})
	ts := startServer(t, echo, server.Options{CertDir: testkit.CertDir(t, pki.Serving1), DrainGrace: 3 * time.Second})

	const clients, before = 48, 3000 // requests served before shutdown starts
	tr := &http.Transport{
		TLSClientConfig:     &tls.Config{RootCAs: pki.CAPool},
		MaxIdleConns:        clients,
		MaxIdleConnsPerHost: clients,
		IdleConnTimeout:     90 * time.Second,
	}
	defer tr.CloseIdleConnections()
	client := &http.Client{Transport: tr, Timeout: 30 * time.Second}

	var (
		wg           sync.WaitGroup
		requests     atomic.Int64
		closed       atomic.Int64 // clients told Connection: close
		failures     atomic.Int64
		firstFailure atomic.Value
		signalOnce   sync.Once
	)
	for i := 0; i < clients; i++ {
		i := i // each client its own: the module is on Go 1.21's loop variables
		spawn(&wg, func() {
			for n := 0; ; n++ {
				req := fmt.Sprintf(`{"client":%d,"n":%d}`, i, n)
				resp, err := client.Post(ts.url+"/convert", "application/json", strings.NewReader(req))
				if err != nil {
					failures.Add(1)
					firstFailure.CompareAndSwap(nil, err.Error())
					return
				}
				body, err := testkit.ReadBody(resp)
				if err != nil || resp.StatusCode != http.StatusOK || string(body) != req {
					failures.Add(1)
					firstFailure.CompareAndSwap(nil, fmt.Sprintf("status %d, body %.100q, error %v", resp.StatusCode, body, err))
					return
				}
				if requests.Add(1) == before {
					signalOnce.Do(ts.cancel) // SIGTERM, mid-load
				}
				if resp.Close {
					closed.Add(1)
					return
				}
			}
		})
	}
	wg.Wait()
	if err := ts.wait(t); err != nil {
		t.Errorf("Run returned %v", err)
	}
	n, f := requests.Load(), failures.Load()
	t.Logf("%d requests from %d keep-alive clients, %d failed", n, clients, f)
	if f > 0 {
		t.Fatalf("%d requests failed across shutdown, the first: %v", f, firstFailure.Load())
	}
	if c := closed.Load(); c != clients {
		t.Errorf("%d of %d clients were told Connection: close", c, clients)
	}
	if n <= before {
		t.Errorf("%d requests; shutdown started after %d", n, before)
	}
}

// TestServerReloadsTheClientCAFile rotates the client CA bundle of mTLS:
// new handshakes verify against the new CAs with no restart, and a broken
// file keeps the previous ones.
func TestServerReloadsTheClientCAFile(t *testing.T) {
	pki := testkit.NewPKI(t)
	caFile := filepath.Join(t.TempDir(), "client-ca.crt")
	if err := os.WriteFile(caFile, testkit.PEM("CERTIFICATE", pki.CA.Raw), 0o600); err != nil {
		t.Fatal(err)
	}
	ts := startServer(t, okHandler, server.Options{CertDir: testkit.CertDir(t, pki.Serving1), ClientCAFile: caFile})
	rotatedCA, rotatedKey := testkit.NewCA(t, "rotated client CA")
	rotated := testkit.KeyPair(t, testkit.NewLeaf(t, rotatedCA, rotatedKey, 4001, "kube-apiserver", x509.ExtKeyUsageClientAuth))
	works := func(cert tls.Certificate) bool {
		_, _, err := get(tlsClient(t, pki, func(c *tls.Config) { c.Certificates = []tls.Certificate{cert} }), ts.url)
		return err == nil
	}
	if !works(pki.Client) || works(rotated) {
		t.Fatal("before the rotation, only the original CA's client certificate should work")
	}

	if err := os.WriteFile(caFile, testkit.PEM("CERTIFICATE", rotatedCA.Raw), 0o600); err != nil {
		t.Fatal(err)
	}
	testkit.WaitUntil(t, "the rotated client CA to apply", 10*time.Second, func() bool { return works(rotated) })
	if works(pki.Client) {
		t.Error("the replaced CA is still trusted")
	}

	if err := os.WriteFile(caFile, []byte("not a certificate"), 0o600); err != nil {
		t.Fatal(err)
	}
	testkit.WaitUntil(t, "the broken CA file to be reported", 10*time.Second, func() bool {
		return ts.logs.Contains("cannot load the new client CA file")
	})
	if !works(rotated) {
		t.Error("a broken CA file dropped the CAs in use")
	}
}

// spawn runs f in a goroutine that wg waits for, as sync.WaitGroup.Go
// would on Go 1.25.
func spawn(wg *sync.WaitGroup, f func()) {
	wg.Add(1)
	go func() {
		defer wg.Done()
		f()
	}()
}
