package webhook

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/crdforge/crdforge/webhook/internal/logging"
	"github.com/crdforge/crdforge/webhook/internal/metrics"
	"github.com/crdforge/crdforge/webhook/internal/review"
	"github.com/crdforge/crdforge/webhook/internal/server"
)

// defaultPort is --port's default, that of controller-runtime's webhook
// server.
const defaultPort = 9443

// Options is the conversion webhook's configuration, as its command-line
// flags set it. Get one from BindFlags and pass it to Run.
//
// Its fields are unexported: the flags are the interface, documented by
// --help, so that they can grow without breaking a main.
type Options struct {
	// server is passed to the server; complete fills in Addr and Logger.
	server server.Options
	// maxRequestBytes limits the size of a ConversionReview request body.
	maxRequestBytes int64
	// maxInflightBytes bounds the request bytes converted at once; zero
	// means review.MaxInflightBytesFor the Go memory limit, once Run has
	// set it (memory).
	maxInflightBytes int64
	// port and bindAddress make up server.Addr.
	port        int
	bindAddress string
	// drainGrace is --shutdown-grace-period; zero means none.
	drainGrace time.Duration
	// logLevel is debug, info, warn or error; logFormat json or text.
	logLevel  slog.Level
	logFormat string
	// logOutput is where logs go; nil means standard error. It is no flag:
	// tests set it.
	logOutput io.Writer
	// lookupEnv reads the environment; nil means os.LookupEnv. It is no
	// flag: tests set it.
	lookupEnv func(string) (string, bool)
	// memory is the Go soft memory limit Run sets, which complete decides
	// from the environment (memoryLimitFrom).
	memory memoryLimit
	// certs keeps the serving certificate in --cert-dir, when a main
	// registered one (ManageCerts) and its flags enable it.
	certs CertManager
	// migrator migrates storage after an upgrade, when a main registered
	// one (MigrateStorage) and its flags enable it.
	migrator StorageMigrator
}

// CertManager keeps the webhook's serving certificate in --cert-dir, where
// the server loads it and reloads it when it changes. Package
// github.com/crdforge/crdforge/webhook/certmanage has the one
// implementation (--manage-certs); a main registers it with ManageCerts,
// so that only a webhook that asks for it links its API server client.
type CertManager interface {
	// Enabled reports whether its flags turned it on; Run ignores it
	// otherwise.
	Enabled() bool
	// Complete checks its flags, for a server reading its certificate from
	// certDir and logging to log.
	Complete(certDir string, log *slog.Logger) error
	// Run keeps the certificate until ctx ends, calling ready once the
	// first pair is in certDir. It returns ctx's error, or why it could not
	// start.
	Run(ctx context.Context, ready func()) error
}

// ManageCerts has Run start m, when its flags enable it, before serving,
// and serve only once m has written the first serving pair. A main
// generated with webhook-manage-certs goes:
//
//	opts := webhook.BindFlags(flag.CommandLine)
//	opts.ManageCerts(certmanage.BindFlags(flag.CommandLine))
//	flag.Parse()
func (o *Options) ManageCerts(m CertManager) { o.certs = m }

// StorageMigrator migrates the stored objects of the webhook's CRDs to
// their storage version after an upgrade. Package
// github.com/crdforge/crdforge/webhook/automigrate has the one
// implementation (--migrate-storage); a main registers it with
// MigrateStorage, so that only a webhook that asks for it links its API
// server client.
type StorageMigrator interface {
	// Enabled reports whether its flags turned it on; Run ignores it
	// otherwise.
	Enabled() bool
	// Complete checks its flags, for a webhook logging to log and exposing
	// its metrics through reg.
	Complete(log *slog.Logger, reg prometheus.Registerer) error
	// Run records what this replica converts, served (versions by
	// group/Kind), and migrates when elected, until ctx ends.
	Run(ctx context.Context, served map[string][]string) error
}

// MigrateStorage has Run start m, when its flags enable it, beside the
// server. A main generated with webhook-migrate-storage goes, after
// ManageCerts when it has it too (both define --kubeconfig, the first):
//
//	opts.MigrateStorage(automigrate.BindFlags(flag.CommandLine))
func (o *Options) MigrateStorage(m StorageMigrator) { o.migrator = m }

// BindFlags defines the conversion webhook's flags in fs and returns the
// Options they set, which hold the defaults until fs is parsed. A webhook's
// main goes:
//
//	opts := webhook.BindFlags(flag.CommandLine)
//	flag.Parse()
//	os.Exit(webhook.Run(opts, kinds()...))
func BindFlags(fs *flag.FlagSet) *Options {
	o := &Options{
		server: server.Options{
			CertDir:     server.DefaultCertDir,
			MetricsAddr: server.DefaultMetricsAddr,
			HealthAddr:  server.DefaultHealthAddr,
		},
		maxRequestBytes: review.DefaultMaxRequestBytes,
		port:            defaultPort,
		drainGrace:      server.DefaultDrainGrace,
		logLevel:        slog.LevelInfo,
		logFormat:       logging.JSON,
	}
	fs.StringVar(&o.server.CertDir, "cert-dir", o.server.CertDir,
		"Directory holding the serving certificate and key as tls.crt and tls.key, such as a mounted cert-manager Secret. They are reloaded when they change.")
	fs.IntVar(&o.port, "port", o.port,
		"Port the conversion webhook serves HTTPS on. It answers ConversionReviews POSTed to the path the CRDs' spec.conversion.webhook.clientConfig.service names, /convert unless a +crdforge:webhook marker says otherwise; / answers 404.")
	fs.StringVar(&o.bindAddress, "bind-address", o.bindAddress,
		"IP address the conversion webhook listens on, with --port; empty means all interfaces.")
	fs.StringVar(&o.server.MetricsAddr, "metrics-bind-address", o.server.MetricsAddr,
		"Address the Prometheus /metrics endpoint binds to; the default is loopback only, so in a pod pass :8080 for Prometheus to scrape it; \"0\" disables it.")
	fs.StringVar(&o.server.HealthAddr, "health-probe-bind-address", o.server.HealthAddr,
		"Address the /healthz and /readyz probe endpoints bind to; the default is loopback only, so in a pod pass :8081 for the kubelet's probes; \"0\" disables them.")
	fs.StringVar(&o.server.ClientCAFile, "client-ca-file", o.server.ClientCAFile,
		"PEM file of CA certificates; when set, callers must present a client certificate signed by one of them (mTLS).")
	fs.Int64Var(&o.maxRequestBytes, "max-request-bytes", o.maxRequestBytes,
		"Largest ConversionReview request body accepted, in bytes; larger requests are refused.")
	fs.Int64Var(&o.maxInflightBytes, "max-inflight-bytes", o.maxInflightBytes,
		"Request bytes converted at once, which bounds the webhook's memory: a review that does not fit waits up to 10s, then gets 429 with Retry-After, which the API server retries. 0 means a twenty-fourth of the Go memory limit, or 24 MiB without one. That limit is GOMEMLIMIT when set, else 80% of "+ContainerMemoryLimitEnv+" (the container's memory limit in bytes, which the generated Deployment sets), else none.")
	fs.BoolVar(&o.server.InsecureHTTP, "insecure-http", o.server.InsecureHTTP,
		"Serve plain HTTP instead of HTTPS, for local development only: the API server only calls webhooks over HTTPS.")
	fs.DurationVar(&o.drainGrace, "shutdown-grace-period", o.drainGrace,
		"How long the webhook serves on after SIGTERM, closing each keep-alive connection after its next response, before it stops accepting connections and drains; 0 stops at once.")
	fs.Var(logging.LevelFlag(&o.logLevel), "log-level",
		"Least severe `level` logged: debug, info, warn or error.")
	fs.Var(logging.FormatFlag(&o.logFormat), "log-format",
		"Log `format`: json or text.")
	return o
}

// complete checks the parsed options, decides the Go memory limit from the
// environment, sets server.Addr from bindAddress and port, and sets
// server.Logger, unless already set, to a logger of logLevel
// and logFormat writing to logOutput. The flag values check what they can
// alone; complete checks the rest, and the flags against each other.
func (o *Options) complete() error {
	var errs []error
	if o.port < 0 || o.port > 65535 {
		errs = append(errs, fmt.Errorf("--port %d is out of range 0-65535", o.port))
	}
	if o.maxRequestBytes <= 0 {
		errs = append(errs, fmt.Errorf("--max-request-bytes must be positive, got %d", o.maxRequestBytes))
	}
	if o.maxInflightBytes < 0 {
		errs = append(errs, fmt.Errorf("--max-inflight-bytes must not be negative, got %d", o.maxInflightBytes))
	}
	if o.drainGrace < 0 {
		errs = append(errs, fmt.Errorf("--shutdown-grace-period must not be negative, got %s", o.drainGrace))
	}
	if o.server.InsecureHTTP && o.server.ClientCAFile != "" {
		errs = append(errs, errors.New("--client-ca-file needs TLS and cannot be used with --insecure-http"))
	}
	lookup := o.lookupEnv
	if lookup == nil {
		lookup = os.LookupEnv
	}
	var err error
	if o.memory, err = memoryLimitFrom(lookup); err != nil {
		errs = append(errs, err)
	}
	if err := errors.Join(errs...); err != nil {
		return err
	}
	o.server.Addr = net.JoinHostPort(o.bindAddress, strconv.Itoa(o.port))
	o.server.DrainGrace = o.drainGrace
	if o.drainGrace == 0 {
		o.server.DrainGrace = -1 // none; the server's zero means its default
	}
	if o.server.Logger == nil {
		w := o.logOutput
		if w == nil {
			w = os.Stderr
		}
		o.server.Logger = logging.New(w, o.logLevel, o.logFormat)
	}
	if err := o.completeCerts(); err != nil {
		return err
	}
	return o.completeMigrator()
}

// completeMigrator checks the --migrate-storage flags, when enabled. The
// registry its metrics go to is the server's, made here when unset.
func (o *Options) completeMigrator() error {
	if o.migrator == nil || !o.migrator.Enabled() {
		return nil
	}
	if o.server.Registry == nil {
		o.server.Registry = metrics.NewRegistry()
	}
	return o.migrator.Complete(o.server.Logger, o.server.Registry)
}

// completeCerts checks the --manage-certs flags, when enabled, and makes
// their configuration.
func (o *Options) completeCerts() error {
	if o.certs == nil || !o.certs.Enabled() {
		return nil
	}
	if o.server.InsecureHTTP {
		return errors.New("--manage-certs serves HTTPS and cannot be used with --insecure-http")
	}
	return o.certs.Complete(o.server.CertDir, o.server.Logger)
}
