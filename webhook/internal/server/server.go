// Package server runs the conversion webhook's HTTPS server next to its
// metrics and health endpoints: TLS with certificate rotation, optional
// mTLS, readiness, and a graceful shutdown that drains in-flight requests.
package server

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"log"
	"log/slog"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/crdforge/crdforge/webhook/internal/certwatch"
	"github.com/crdforge/crdforge/webhook/internal/metrics"
)

// Serve serves h, the conversion webhook, until ctx is done, together with
// the metrics and health endpoints. It is New followed by Run; see
// them. It returns nil after a clean shutdown.
func Serve(ctx context.Context, h http.Handler, opts Options) error {
	s, err := New(h, opts)
	if err != nil {
		return err
	}
	return s.Run(ctx)
}

// Server is the conversion webhook's HTTPS server with its metrics and
// health endpoints. New prepares it and binds its listeners, Run serves.
type Server struct {
	opts  Options
	log   *slog.Logger
	certs *certwatch.KeyPair // nil over plain HTTP
	cas   *certwatch.CAPool  // nil without mTLS

	webhook   *http.Server
	webhookLn net.Listener
	aux       []auxServer
	metricsLn net.Addr
	healthLn  net.Addr

	ready    atomic.Bool
	stopping atomic.Bool
	started  atomic.Bool
}

// auxServer is a plain HTTP server for metrics or health probes.
type auxServer struct {
	name string
	srv  *http.Server
	ln   net.Listener
}

// New checks opts, loads the serving certificate and the client CAs,
// and binds the listeners, so that every configuration error, an address
// already in use included, surfaces here and the bound addresses are known
// before Run. Nothing is served until Run, which must be called to release
// the listeners.
func New(h http.Handler, opts Options) (*Server, error) {
	if h == nil {
		return nil, errors.New("webhook server: nil handler")
	}
	o := opts.WithDefaults()
	if o.InsecureHTTP && o.ClientCAFile != "" {
		return nil, errors.New("client certificate verification needs TLS: a client CA file cannot be used with insecure HTTP")
	}
	if o.MaxHeaderBytes < 0 || o.ReadHeaderTimeout < 0 || o.ReadTimeout < 0 || o.WriteTimeout < 0 || o.IdleTimeout < 0 || o.ShutdownTimeout < 0 {
		return nil, errors.New("webhook server: negative timeout or header size limit")
	}
	if o.Registry == nil {
		o.Registry = metrics.NewRegistry()
	}
	s := &Server{opts: o, log: o.Logger}

	var tlsConf *tls.Config
	if !o.InsecureHTTP {
		certFile, keyFile := filepath.Join(o.CertDir, o.CertName), filepath.Join(o.CertDir, o.KeyName)
		certs, err := certwatch.NewKeyPair(certFile, keyFile, s.log)
		if err != nil {
			return nil, fmt.Errorf("serving certificate: %w (mount one in the certificate directory, or serve plain HTTP for local development)", err)
		}
		certs.PollInterval = o.CertPollInterval
		s.certs = certs
		tlsConf = &tls.Config{
			MinVersion:     tls.VersionTLS12,
			GetCertificate: certs.GetCertificate,
		}
		if o.ClientCAFile != "" {
			cas, err := certwatch.NewCAPool(o.ClientCAFile, s.log)
			if err != nil {
				return nil, err
			}
			cas.PollInterval = o.CertPollInterval
			s.cas = cas
			tlsConf.ClientCAs = cas.Pool()
			tlsConf.ClientAuth = tls.RequireAndVerifyClientCert
			// Each handshake verifies against the current CAs, so a
			// rotated CA bundle applies with no restart.
			base := tlsConf
			tlsConf = base.Clone()
			tlsConf.GetConfigForClient = func(*tls.ClientHelloInfo) (*tls.Config, error) {
				c := base.Clone()
				c.ClientCAs = cas.Pool()
				return c, nil
			}
		}
	}
	s.webhook = s.newHTTPServer(s.closeWhenDraining(h))
	s.webhook.TLSConfig = tlsConf

	var err error
	if s.webhookLn, err = net.Listen("tcp", o.Addr); err != nil {
		return nil, fmt.Errorf("webhook listener: %w", err)
	}
	if err := s.listenAux(); err != nil {
		s.closeListeners()
		return nil, err
	}
	return s, nil
}

// readOnly serves GET and HEAD with h and answers 405 to other methods.
// The patterns stay plain paths ("GET /readyz" is a pattern of Go 1.22's
// mux only): a main module on Go 1.21, or with GODEBUG=httpmuxgo121=1,
// runs the old mux, which would take "GET /readyz" for a path, and the
// probes would never answer.
func readOnly(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, "method "+r.Method+" not allowed", http.StatusMethodNotAllowed)
			return
		}
		h.ServeHTTP(w, r)
	})
}

// listenAux binds the metrics and health servers, one server when they
// share an address.
func (s *Server) listenAux() error {
	metrics := promhttp.HandlerFor(s.opts.Registry, promhttp.HandlerOpts{})
	mux := map[string]*http.ServeMux{}
	var addrs []string
	add := func(addr, pattern string, h http.Handler) {
		if addr == DisabledAddr {
			return
		}
		if mux[addr] == nil {
			mux[addr] = http.NewServeMux()
			addrs = append(addrs, addr)
		}
		mux[addr].Handle(pattern, h)
	}
	add(s.opts.HealthAddr, "/healthz", readOnly(http.HandlerFunc(s.healthz)))
	add(s.opts.HealthAddr, "/readyz", readOnly(http.HandlerFunc(s.readyz)))
	add(s.opts.MetricsAddr, "/metrics", readOnly(metrics))
	for _, addr := range addrs {
		name := "health probe"
		if addr == s.opts.MetricsAddr {
			name = "metrics"
			if addr == s.opts.HealthAddr {
				name = "metrics and health probe"
			}
		}
		ln, err := net.Listen("tcp", addr)
		if err != nil {
			return fmt.Errorf("%s listener: %w", name, err)
		}
		s.aux = append(s.aux, auxServer{name: name, srv: s.newHTTPServer(mux[addr]), ln: ln})
		if addr == s.opts.MetricsAddr {
			s.metricsLn = ln.Addr()
		}
		if addr == s.opts.HealthAddr {
			s.healthLn = ln.Addr()
		}
	}
	return nil
}

func (s *Server) newHTTPServer(h http.Handler) *http.Server {
	// HTTP/1.1 only, as controller-runtime's webhook server does by
	// default, keeping the webhook clear of HTTP/2 stream-level attacks
	// (CVE-2023-44487, CVE-2023-39325); the API server reuses keep-alive
	// connections either way. An empty, non-nil TLSNextProto is how every
	// Go release turns HTTP/2 off (http.Protocols needs Go 1.24).
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: s.opts.ReadHeaderTimeout,
		ReadTimeout:       s.opts.ReadTimeout,
		WriteTimeout:      s.opts.WriteTimeout,
		IdleTimeout:       s.opts.IdleTimeout,
		MaxHeaderBytes:    s.opts.MaxHeaderBytes,
		TLSNextProto:      map[string]func(*http.Server, *tls.Conn, http.Handler){},
		ErrorLog:          log.New(serverErrorLog{s.log}, "", 0),
	}
}

// closeWhenDraining answers every request with Connection: close once
// shutdown has started, so that net/http closes each keep-alive connection
// after its response rather than while idle, when the client may be
// sending on it (see Options.DrainGrace).
func (s *Server) closeWhenDraining(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if s.stopping.Load() {
			w.Header().Set("Connection", "close")
		}
		h.ServeHTTP(w, r)
	})
}

// closeListeners releases the listeners of a Server that New is giving up
// on. They never served, and New already returns the error that made it
// give up, so an error closing them is dropped.
func (s *Server) closeListeners() {
	if s.webhookLn != nil {
		_ = s.webhookLn.Close()
	}
	for _, a := range s.aux {
		_ = a.ln.Close()
	}
}

// Addr is the webhook listener's address.
func (s *Server) Addr() net.Addr { return s.webhookLn.Addr() }

// MetricsAddr is the metrics listener's address, nil when disabled.
func (s *Server) MetricsAddr() net.Addr { return s.metricsLn }

// HealthAddr is the health probe listener's address, nil when disabled.
func (s *Server) HealthAddr() net.Addr { return s.healthLn }

// healthz reports that the process is alive.
func (s *Server) healthz(w http.ResponseWriter, _ *http.Request) {
	probeAnswer(w, http.StatusOK, "ok")
}

// readyz reports whether the webhook accepts requests: from the start of
// Run, the certificate being loaded by then, until shutdown starts.
func (s *Server) readyz(w http.ResponseWriter, _ *http.Request) {
	switch {
	case s.ready.Load():
		probeAnswer(w, http.StatusOK, "ok")
	case s.stopping.Load():
		probeAnswer(w, http.StatusServiceUnavailable, "shutting down")
	default:
		probeAnswer(w, http.StatusServiceUnavailable, "not ready")
	}
}

// probeAnswer writes a probe's status and a line of text. The status
// carries the answer, so a body that fails to go out, to a prober that hung
// up or timed out, changes nothing: its error is dropped.
func probeAnswer(w http.ResponseWriter, code int, msg string) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.WriteHeader(code)
	_, _ = io.WriteString(w, msg+"\n")
}

// Run serves until ctx is done or a server fails. Then it marks the webhook
// not ready (/readyz answers 503), serves on for DrainGrace answering every
// request with Connection: close, then stops accepting connections and lets
// in-flight requests finish for up to ShutdownTimeout, before stopping the
// metrics and health servers. It returns nil after a clean shutdown, and an
// error when a server failed or requests were still running at the
// deadline. Run may be called once.
//
// Kubernetes removes a terminating pod from the Service's endpoints while it
// sends SIGTERM, not before, so a preStop sleep of a few seconds spares the
// API server connections refused in between.
func (s *Server) Run(ctx context.Context) error {
	if !s.started.CompareAndSwap(false, true) {
		return errors.New("webhook server: Run called twice")
	}
	var wg sync.WaitGroup
	errc := make(chan error, 1+len(s.aux))
	// Certificates keep rotating while requests drain.
	watchCtx, stopWatching := context.WithCancel(context.WithoutCancel(ctx))
	defer stopWatching()
	if s.certs != nil {
		goWait(&wg, func() { s.certs.Start(watchCtx) })
	}
	if s.cas != nil {
		goWait(&wg, func() { s.cas.Start(watchCtx) })
	}
	for _, a := range s.aux {
		a := a // each server its own: the module is on Go 1.21's loop variables
		goWait(&wg, func() {
			if err := a.srv.Serve(a.ln); !errors.Is(err, http.ErrServerClosed) {
				errc <- fmt.Errorf("%s server: %w", a.name, err)
			}
		})
		s.log.Info("serving "+a.name+" endpoints", "addr", a.ln.Addr().String())
	}
	goWait(&wg, func() {
		var err error
		if s.certs != nil {
			err = s.webhook.ServeTLS(s.webhookLn, "", "")
		} else {
			err = s.webhook.Serve(s.webhookLn)
		}
		if !errors.Is(err, http.ErrServerClosed) {
			errc <- fmt.Errorf("webhook server: %w", err)
		}
	})
	attrs := []any{"addr", s.Addr().String(), "tls", s.certs != nil, "mtls", s.webhook.TLSConfig != nil && s.webhook.TLSConfig.ClientCAs != nil}
	if s.certs == nil {
		s.log.Warn("serving the conversion webhook over plain HTTP, for local development only", attrs...)
	} else {
		s.log.Info("serving the conversion webhook", attrs...)
	}
	s.ready.Store(true)

	var err error
	select {
	case <-ctx.Done():
		s.stopping.Store(true)
		s.ready.Store(false)
		if s.opts.DrainGrace > 0 {
			s.log.Info("shutting down: serving on, closing each connection after its response", "cause", context.Cause(ctx).Error(), "grace", s.opts.DrainGrace.String())
			timer := time.NewTimer(s.opts.DrainGrace)
			select {
			case <-timer.C:
			case err = <-errc:
				timer.Stop()
				s.log.Error("server failed, shutting down", "error", err)
			}
		}
		s.log.Info("shutting down, draining in-flight requests", "cause", context.Cause(ctx).Error(), "timeout", s.opts.ShutdownTimeout.String())
	case err = <-errc:
		s.log.Error("server failed, shutting down", "error", err)
	}
	s.stopping.Store(true)
	s.ready.Store(false)

	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), s.opts.ShutdownTimeout)
	defer cancel()
	// When draining times out, Close cuts the connections still open. Its
	// only error would come from closing the listeners, which Shutdown has
	// done already, so Shutdown's error is the one reported.
	if e := s.webhook.Shutdown(sctx); e != nil {
		_ = s.webhook.Close()
		err = errors.Join(err, fmt.Errorf("draining webhook requests: %w", e))
	}
	for _, a := range s.aux {
		if e := a.srv.Shutdown(sctx); e != nil {
			_ = a.srv.Close()
			s.log.Warn("stopping the "+a.name+" server", "error", e)
		}
	}
	stopWatching()
	wg.Wait()
	close(errc)
	for e := range errc {
		err = errors.Join(err, e)
	}
	if err != nil {
		s.log.Error("shutdown finished with errors", "error", err)
		return err
	}
	s.log.Info("shutdown complete")
	return nil
}

// serverErrorLog sends net/http's error log to slog: failed TLS handshakes,
// often a caller that does not trust the certificate, as warnings, the rest
// (such as handler panics) as errors.
type serverErrorLog struct{ log *slog.Logger }

func (l serverErrorLog) Write(p []byte) (int, error) {
	msg := strings.TrimSpace(string(p))
	level := slog.LevelError
	if strings.Contains(msg, "TLS handshake error") {
		level = slog.LevelWarn
	}
	l.log.Log(context.Background(), level, msg)
	return len(p), nil
}

// goWait runs f in a goroutine that wg waits for: sync.WaitGroup.Go, which
// needs Go 1.25, while this module stays on the oldest Go its users may
// have.
func goWait(wg *sync.WaitGroup, f func()) {
	wg.Add(1)
	go func() {
		defer wg.Done()
		f()
	}()
}
