package webhook

import (
	"bytes"
	"context"
	"flag"
	"io"
	"log/slog"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/crdforge/crdforge/webhook/certmanage"
	"github.com/crdforge/crdforge/webhook/internal/server"
	"github.com/crdforge/crdforge/webhook/internal/testkit"
)

func parseFlags(t *testing.T, args ...string) (*Options, error) {
	t.Helper()
	fs := flag.NewFlagSet("webhook", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	o := BindFlags(fs)
	o.ManageCerts(certmanage.BindFlags(fs))
	o.logOutput = io.Discard
	if err := fs.Parse(args); err != nil {
		return o, err
	}
	return o, o.complete()
}

func TestFlagsDefaults(t *testing.T) {
	o, err := parseFlags(t)
	if err != nil {
		t.Fatal(err)
	}
	s := o.server
	for _, c := range []struct{ name, got, want string }{
		{"addr", s.Addr, ":9443"},
		{"cert dir", s.CertDir, "/tmp/k8s-webhook-server/serving-certs"},
		{"metrics address", s.MetricsAddr, "127.0.0.1:8080"},
		{"health address", s.HealthAddr, "127.0.0.1:8081"},
		{"client CA", s.ClientCAFile, ""},
		{"bind address", o.bindAddress, ""},
		{"log format", o.logFormat, "json"},
	} {
		if c.got != c.want {
			t.Errorf("%s: %q, want %q", c.name, c.got, c.want)
		}
	}
	if s.DrainGrace != 5*time.Second {
		t.Errorf("grace period %s, want 5s", s.DrainGrace)
	}
	if o.port != 9443 || o.maxRequestBytes != 3145728 || s.InsecureHTTP || o.logLevel != slog.LevelInfo {
		t.Errorf("port %d, max request bytes %d, insecure %v, log level %v", o.port, o.maxRequestBytes, s.InsecureHTTP, o.logLevel)
	}
	if s.Logger == nil {
		t.Error("complete set no logger")
	}
	// The rest is left to the server's defaults.
	if d := s.WithDefaults(); d.CertName != "tls.crt" || d.KeyName != "tls.key" {
		t.Errorf("file names %q, %q", d.CertName, d.KeyName)
	}
}

func TestFlagsFullCommandLineSetsEveryOption(t *testing.T) {
	o, err := parseFlags(t,
		"--cert-dir=/certs",
		"--port", "10443",
		"--bind-address=127.0.0.1",
		"--metrics-bind-address=127.0.0.1:9090",
		"--health-probe-bind-address", ":9091",
		"--client-ca-file=/ca/ca.crt",
		"--max-request-bytes=1048576",
		"--max-inflight-bytes=8388608",
		"--log-level=debug",
		"--log-format=text",
		"--shutdown-grace-period=12s",
	)
	if err != nil {
		t.Fatal(err)
	}
	s := o.server
	for _, c := range []struct{ name, got, want string }{
		{"addr", s.Addr, "127.0.0.1:10443"},
		{"cert dir", s.CertDir, "/certs"},
		{"metrics address", s.MetricsAddr, "127.0.0.1:9090"},
		{"health address", s.HealthAddr, ":9091"},
		{"client CA", s.ClientCAFile, "/ca/ca.crt"},
		{"log format", o.logFormat, "text"},
	} {
		if c.got != c.want {
			t.Errorf("%s: %q, want %q", c.name, c.got, c.want)
		}
	}
	if s.DrainGrace != 12*time.Second {
		t.Errorf("grace period %s, want 12s", s.DrainGrace)
	}
	if o.maxInflightBytes != 8<<20 {
		t.Errorf("max in-flight bytes %d, want 8 MiB", o.maxInflightBytes)
	}
	if o.port != 10443 || o.maxRequestBytes != 1<<20 || o.logLevel != slog.LevelDebug {
		t.Errorf("port %d, max request bytes %d, log level %v", o.port, o.maxRequestBytes, o.logLevel)
	}

	o, err = parseFlags(t, "--insecure-http", "--bind-address=::1", "--port=8443", "--metrics-bind-address=0", "--log-level=ERROR", "--shutdown-grace-period=0")
	if err != nil {
		t.Fatal(err)
	}
	if o.server.DrainGrace >= 0 {
		t.Errorf("--shutdown-grace-period=0 gives the server grace %s, want none (negative)", o.server.DrainGrace)
	}
	if !o.server.InsecureHTTP || o.server.Addr != "[::1]:8443" || o.server.MetricsAddr != "0" || o.logLevel != slog.LevelError {
		t.Errorf("insecure %v, addr %q, metrics %q, level %v", o.server.InsecureHTTP, o.server.Addr, o.server.MetricsAddr, o.logLevel)
	}
}

func TestFlagsLogger(t *testing.T) {
	for _, c := range []struct {
		args        []string
		debug, json bool
	}{
		{nil, false, true},
		{[]string{"--log-level=debug", "--log-format=text"}, true, false},
		{[]string{"--log-level=warn"}, false, true},
	} {
		fs := flag.NewFlagSet("webhook", flag.ContinueOnError)
		o := BindFlags(fs)
		var buf bytes.Buffer
		o.logOutput = &buf
		if err := fs.Parse(c.args); err != nil {
			t.Fatal(err)
		}
		if err := o.complete(); err != nil {
			t.Fatal(err)
		}
		o.server.Logger.Debug("dbg")
		o.server.Logger.Warn("wrn", "k", "v")
		out := buf.String()
		if strings.Contains(out, "dbg") != c.debug {
			t.Errorf("%v: debug written %v, want %v:\n%s", c.args, !c.debug, c.debug, out)
		}
		if strings.HasPrefix(out, "{") != c.json || !strings.Contains(out, "wrn") {
			t.Errorf("%v: want JSON %v:\n%s", c.args, c.json, out)
		}
	}
}

func TestFlagsRejectBadValues(t *testing.T) {
	for _, args := range [][]string{
		{"--log-level=loud"},
		{"--log-format=xml"},
		{"--port=65536"},
		{"--port=-1"},
		{"--port=https"},
		{"--max-request-bytes=0"},
		{"--max-inflight-bytes=-1"},
		{"--shutdown-grace-period=-1s"},
		{"--insecure-http", "--client-ca-file=/ca.crt"},
		{"--unknown"},
		{"--manage-certs", "--certs-namespace=ns", "--certs-crds=a.example.com", "--certs-service=svc"},
		{"--manage-certs", "--certs-namespace=ns", "--certs-secret=s", "--certs-service=svc"},
		{"--manage-certs", "--certs-namespace=ns", "--certs-secret=s", "--certs-crds=a.example.com"},
		{"--manage-certs", "--certs-namespace=ns", "--certs-secret=s", "--certs-crds=a.example.com", "--certs-service=svc", "--insecure-http"},
		{"--manage-certs", "--certs-namespace=ns", "--certs-secret=s", "--certs-crds=a.example.com", "--certs-service=svc", "--ca-overlap=1s"},
		{"--manage-certs", "--certs-namespace=ns", "--certs-secret=s", "--certs-crds=a.example.com", "--certs-service=svc", "--ca-validity=1h", "--ca-overlap=30m"},
	} {
		if _, err := parseFlags(t, args...); err == nil {
			t.Errorf("%v accepted", args)
		}
	}
}

func TestFlagsAreExactlyTheDocumentedOnesWithHelp(t *testing.T) {
	names := func(fs *flag.FlagSet) []string {
		var names []string
		fs.VisitAll(func(f *flag.Flag) {
			names = append(names, f.Name)
			if len(f.Usage) < 20 || !strings.HasSuffix(f.Usage, ".") {
				t.Errorf("--%s's help %q is not a sentence", f.Name, f.Usage)
			}
		})
		return names
	}
	fs := flag.NewFlagSet("webhook", flag.ContinueOnError)
	BindFlags(fs)
	want := []string{"bind-address", "cert-dir",
		"client-ca-file", "health-probe-bind-address", "insecure-http",
		"log-format", "log-level", "max-inflight-bytes", "max-request-bytes", "metrics-bind-address", "port", "shutdown-grace-period"}
	if got := names(fs); !slices.Equal(got, want) {
		t.Errorf("flags %v, want %v", got, want)
	}
	// A main generated with webhook-manage-certs registers the rest.
	managed := flag.NewFlagSet("webhook", flag.ContinueOnError)
	BindFlags(managed).ManageCerts(certmanage.BindFlags(managed))
	wantManaged := []string{"bind-address", "ca-overlap", "ca-validity", "cert-dir", "cert-validity",
		"certs-crds", "certs-hosts", "certs-namespace", "certs-secret", "certs-service", "certs-sync-period",
		"client-ca-file", "health-probe-bind-address", "insecure-http", "kubeconfig",
		"log-format", "log-level", "manage-certs", "max-inflight-bytes", "max-request-bytes", "metrics-bind-address", "port", "shutdown-grace-period"}
	if got := names(managed); !slices.Equal(got, wantManaged) {
		t.Errorf("flags with certmanage %v, want %v", got, wantManaged)
	}
	if u := fs.Lookup("insecure-http").Usage; !strings.Contains(u, "for local development only") {
		t.Errorf("--insecure-http's help does not warn: %q", u)
	}
	// Whoever points a CRD or curl at the webhook needs its path.
	if u := fs.Lookup("port").Usage; !strings.Contains(u, "/convert") || !strings.Contains(u, "/ answers 404") {
		t.Errorf("--port's help names no path: %q", u)
	}
	var help bytes.Buffer
	fs.SetOutput(&help)
	fs.PrintDefaults()
	for _, want := range []string{"-log-level level", "(default info)", "-log-format format", "(default json)", `(default "/tmp/k8s-webhook-server/serving-certs")`} {
		if !strings.Contains(help.String(), want) {
			t.Errorf("the help lacks %q:\n%s", want, help.String())
		}
	}
}

// The options the flags produce run a server as they are.
func TestFlagsFeedTheServer(t *testing.T) {
	o, err := parseFlags(t, "--insecure-http", "--bind-address=127.0.0.1", "--port=0",
		"--metrics-bind-address=0", "--health-probe-bind-address=127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ok := http.HandlerFunc(func(http.ResponseWriter, *http.Request) {})
	srv, err := server.New(ok, o.server)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Run(ctx) }()
	testkit.WaitUntil(t, "the webhook answers", 10*time.Second, func() bool {
		resp, err := http.Get("http://" + srv.Addr().String())
		if err != nil {
			return false
		}
		if _, err := testkit.ReadBody(resp); err != nil {
			return false
		}
		return resp.StatusCode == http.StatusOK
	})
	cancel()
	if err := <-done; err != nil {
		t.Errorf("Run: %v", err)
	}
}
