package server

import (
	"log/slog"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/crdforge/crdforge/webhook/internal/certwatch"
)

// Defaults of Options.
const (
	DefaultAddr              = ":9443"
	DefaultCertDir           = "/tmp/k8s-webhook-server/serving-certs"
	DefaultCertName          = "tls.crt"
	DefaultKeyName           = "tls.key"
	DefaultMetricsAddr       = "127.0.0.1:8080"
	DefaultHealthAddr        = "127.0.0.1:8081"
	DefaultReadHeaderTimeout = 10 * time.Second
	DefaultReadTimeout       = 30 * time.Second
	DefaultWriteTimeout      = 30 * time.Second
	DefaultIdleTimeout       = 120 * time.Second
	DefaultMaxHeaderBytes    = 64 << 10
	DefaultShutdownTimeout   = 30 * time.Second
	DefaultDrainGrace        = 5 * time.Second
)

// DisabledAddr is the address that, given as MetricsAddr or HealthAddr,
// turns that endpoint off.
const DisabledAddr = "0"

// Options configures a Server. The zero value of every field means its
// default.
type Options struct {
	// Addr is the webhook's listen address, host:port; default ":9443".
	// Port 0 picks a free port, which Server.Addr reports.
	Addr string
	// CertDir holds the serving certificate and key, such as a mounted
	// kubernetes.io/tls Secret; default
	// "/tmp/k8s-webhook-server/serving-certs", as in controller-runtime.
	CertDir string
	// CertName and KeyName are the file names in CertDir; defaults
	// "tls.crt" and "tls.key".
	CertName, KeyName string
	// ClientCAFile, when set, makes the webhook require a client
	// certificate signed by one of the CAs in this PEM file (mTLS).
	ClientCAFile string
	// InsecureHTTP serves plain HTTP, for local development only: the API
	// server only calls conversion webhooks over HTTPS.
	InsecureHTTP bool
	// MetricsAddr is where /metrics is served over plain HTTP; default
	// "127.0.0.1:8080", "0" disables it. Loopback by default, so that a
	// webhook run on a workstation or a node exposes nothing unauthenticated:
	// a pod's Deployment passes ":8080" for Prometheus to scrape it.
	MetricsAddr string
	// HealthAddr is where /healthz and /readyz are served over plain HTTP;
	// default "127.0.0.1:8081", "0" disables them; a pod's Deployment
	// passes ":8081" for the kubelet's probes. It may equal MetricsAddr.
	HealthAddr string
	// Timeouts of the HTTP servers; defaults 10s, 30s, 30s and 120s.
	ReadHeaderTimeout, ReadTimeout, WriteTimeout, IdleTimeout time.Duration
	// MaxHeaderBytes limits request headers; default 64 KiB.
	MaxHeaderBytes int
	// DrainGrace is how long, once shutdown starts, the webhook goes on
	// accepting connections and serving requests, each answered with
	// Connection: close, before it stops accepting; default 5s, negative
	// for none. The API server keeps idle keep-alive connections to a pod
	// after the pod left the Service's endpoints, and does not retry a
	// conversion call that fails: net/http's Shutdown closes idle
	// connections at once, so a request the API server is just sending on
	// one is lost. Over the grace period, every connection that carries a
	// request is closed by its own response instead, and only connections
	// idle for the whole period are left for Shutdown to close.
	DrainGrace time.Duration
	// ShutdownTimeout bounds how long in-flight requests may take to
	// finish once the grace period is over; default 30s.
	ShutdownTimeout time.Duration
	// Logger receives structured logs; default slog.Default().
	Logger *slog.Logger
	// Registry is what /metrics exposes; nil means a fresh
	// metrics.NewRegistry(), with only the Go and process collectors. Pass
	// the registry given to metrics.New to expose the conversion metrics.
	Registry *prometheus.Registry
	// CertPollInterval is how often the certificate files are checked for
	// rotation; default 1s.
	CertPollInterval time.Duration
}

// WithDefaults returns o with every zero field set to its default.
// Registry stays nil: New creates it.
func (o Options) WithDefaults() Options {
	setDefault(&o.Addr, DefaultAddr)
	setDefault(&o.CertDir, DefaultCertDir)
	setDefault(&o.CertName, DefaultCertName)
	setDefault(&o.KeyName, DefaultKeyName)
	setDefault(&o.MetricsAddr, DefaultMetricsAddr)
	setDefault(&o.HealthAddr, DefaultHealthAddr)
	setDefault(&o.ReadHeaderTimeout, DefaultReadHeaderTimeout)
	setDefault(&o.ReadTimeout, DefaultReadTimeout)
	setDefault(&o.WriteTimeout, DefaultWriteTimeout)
	setDefault(&o.IdleTimeout, DefaultIdleTimeout)
	setDefault(&o.MaxHeaderBytes, DefaultMaxHeaderBytes)
	setDefault(&o.ShutdownTimeout, DefaultShutdownTimeout)
	setDefault(&o.DrainGrace, DefaultDrainGrace)
	setDefault(&o.CertPollInterval, certwatch.DefaultPollInterval)
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	return o
}

func setDefault[T comparable](field *T, def T) {
	var zero T
	if *field == zero {
		*field = def
	}
}
