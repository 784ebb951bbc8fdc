package runtime

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"strconv"
	"strings"
)

// DefaultPort is the --port flag's default.
const DefaultPort = 9443

// defaultFlagMaxRequestBytes is --max-request-bytes' default: 3 MiB, the API
// server's own request size limit.
const defaultFlagMaxRequestBytes = DefaultMaxRequestBytes

// Options is the conversion webhook's command-line configuration.
type Options struct {
	// Server is passed to Serve. Complete fills in Addr and Logger.
	Server ServerOptions
	// MaxRequestBytes limits the size of a ConversionReview request body.
	MaxRequestBytes int64

	// Port and BindAddress make up Server.Addr.
	Port        int
	BindAddress string
	// LogLevel is debug, info, warn or error; LogFormat is json or text.
	LogLevel  slog.Level
	LogFormat string
	// LogOutput is where logs go; nil means standard error. It is no flag.
	LogOutput io.Writer
}

// BindFlags defines the webhook's flags in fs and returns the Options they
// set. Call Complete after fs.Parse. A webhook's main goes:
//
//	fs := flag.NewFlagSet(os.Args[0], flag.ExitOnError)
//	opts := runtime.BindFlags(fs)
//	fs.Parse(os.Args[1:])
//	if err := opts.Complete(); err != nil {
//		fmt.Fprintln(os.Stderr, err)
//		os.Exit(2)
//	}
//	reg := runtime.NewRegistry()
//	opts.Server.Registry = reg
//	metrics := runtime.NewMetrics(reg)
//	handler := ... // the ConversionReview handler, given metrics and opts.MaxRequestBytes
//	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
//	defer stop()
//	if err := runtime.Serve(ctx, handler, opts.Server); err != nil {
//		opts.Server.Logger.Error("conversion webhook failed", "error", err)
//		os.Exit(1)
//	}
func BindFlags(fs *flag.FlagSet) *Options {
	o := &Options{
		Server: ServerOptions{
			CertDir:     DefaultCertDir,
			MetricsAddr: DefaultMetricsAddr,
			HealthAddr:  DefaultHealthAddr,
		},
		MaxRequestBytes: defaultFlagMaxRequestBytes,
		Port:            DefaultPort,
		LogLevel:        slog.LevelInfo,
		LogFormat:       "json",
	}
	fs.StringVar(&o.Server.CertDir, "cert-dir", o.Server.CertDir,
		"Directory holding the serving certificate and key as tls.crt and tls.key, such as a mounted cert-manager Secret. They are reloaded when they change.")
	fs.IntVar(&o.Port, "port", o.Port,
		"Port the conversion webhook serves HTTPS on.")
	fs.StringVar(&o.BindAddress, "bind-address", o.BindAddress,
		"IP address the conversion webhook listens on, with --port; empty means all interfaces.")
	fs.StringVar(&o.Server.MetricsAddr, "metrics-bind-address", o.Server.MetricsAddr,
		"Address the Prometheus /metrics endpoint binds to, such as :8080 or 127.0.0.1:8080; \"0\" disables it.")
	fs.StringVar(&o.Server.HealthAddr, "health-probe-bind-address", o.Server.HealthAddr,
		"Address the /healthz and /readyz probe endpoints bind to; \"0\" disables them.")
	fs.StringVar(&o.Server.ClientCAFile, "client-ca-file", o.Server.ClientCAFile,
		"PEM file of CA certificates; when set, callers must present a client certificate signed by one of them (mTLS).")
	fs.Int64Var(&o.MaxRequestBytes, "max-request-bytes", o.MaxRequestBytes,
		"Largest ConversionReview request body accepted, in bytes; larger requests are refused.")
	fs.BoolVar(&o.Server.InsecureHTTP, "insecure-http", o.Server.InsecureHTTP,
		"Serve plain HTTP instead of HTTPS, for local development only: the API server only calls webhooks over HTTPS.")
	fs.Var(levelFlag{&o.LogLevel}, "log-level",
		"Least severe `level` logged: debug, info, warn or error.")
	fs.Var(formatFlag{&o.LogFormat}, "log-format",
		"Log `format`: json or text.")
	return o
}

// Complete checks the parsed options, sets Server.Addr from BindAddress
// and Port, and sets Server.Logger, unless already set, to a logger of
// LogLevel and LogFormat writing to LogOutput.
func (o *Options) Complete() error {
	var errs []error
	if o.Port < 0 || o.Port > 65535 {
		errs = append(errs, fmt.Errorf("--port %d is out of range 0-65535", o.Port))
	}
	if o.MaxRequestBytes <= 0 {
		errs = append(errs, fmt.Errorf("--max-request-bytes must be positive, got %d", o.MaxRequestBytes))
	}
	if o.LogFormat != "json" && o.LogFormat != "text" {
		errs = append(errs, fmt.Errorf("--log-format must be json or text, got %q", o.LogFormat))
	}
	if o.Server.InsecureHTTP && o.Server.ClientCAFile != "" {
		errs = append(errs, errors.New("--client-ca-file needs TLS and cannot be used with --insecure-http"))
	}
	if err := errors.Join(errs...); err != nil {
		return err
	}
	o.Server.Addr = net.JoinHostPort(o.BindAddress, strconv.Itoa(o.Port))
	if o.Server.Logger == nil {
		o.Server.Logger = o.NewLogger()
	}
	return nil
}

// NewLogger returns a logger of LogLevel and LogFormat writing to
// LogOutput, standard error by default.
func (o *Options) NewLogger() *slog.Logger {
	w := o.LogOutput
	if w == nil {
		w = os.Stderr
	}
	ho := &slog.HandlerOptions{Level: o.LogLevel}
	if o.LogFormat == "text" {
		return slog.New(slog.NewTextHandler(w, ho))
	}
	return slog.New(slog.NewJSONHandler(w, ho))
}

// levelFlag accepts debug, info, warn and error.
type levelFlag struct{ l *slog.Level }

var logLevels = map[string]slog.Level{
	"debug": slog.LevelDebug, "info": slog.LevelInfo,
	"warn": slog.LevelWarn, "error": slog.LevelError,
}

func (f levelFlag) String() string {
	if f.l == nil {
		return ""
	}
	return strings.ToLower(f.l.String())
}

func (f levelFlag) Set(s string) error {
	l, ok := logLevels[strings.ToLower(s)]
	if !ok {
		return errors.New("must be debug, info, warn or error")
	}
	*f.l = l
	return nil
}

// formatFlag accepts json and text.
type formatFlag struct{ s *string }

func (f formatFlag) String() string {
	if f.s == nil {
		return ""
	}
	return *f.s
}

func (f formatFlag) Set(s string) error {
	s = strings.ToLower(s)
	if s != "json" && s != "text" {
		return errors.New("must be json or text")
	}
	*f.s = s
	return nil
}
