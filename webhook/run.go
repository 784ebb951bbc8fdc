package webhook

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"os/signal"
	"sort"
	"syscall"

	"github.com/crdforge/crdforge/webhook/internal/metrics"
	"github.com/crdforge/crdforge/webhook/internal/server"
)

// DrainTimeout is how long Run, on SIGTERM, after serving on for
// --shutdown-grace-period, waits for the requests in flight before it cuts
// their connections. A pod's terminationGracePeriodSeconds must cover its
// preStop, the grace and this, or SIGKILL ends the drain.
const DrainTimeout = server.DefaultShutdownTimeout

// Run is the whole conversion webhook behind a main: it checks the parsed
// options, sets the Go soft memory limit (memoryLimitFrom), builds the
// conversion table of kinds, and serves the
// ConversionReview handler (on every path but /, see notAtRoot) with metrics, health probes,
// certificate reloading, and a graceful shutdown on SIGTERM or SIGINT. It
// returns the process exit code: 0 after a clean shutdown, 1 on failure,
// 2 for bad options or a bad table.
func Run(opts *Options, kinds ...Kind) int {
	if err := opts.complete(); err != nil {
		fmt.Fprintln(os.Stderr, "webhook:", err)
		return 2
	}
	log := opts.server.Logger
	// Before the handler: its in-flight budget follows the limit.
	memoryLimit := opts.memory.apply()
	if opts.server.Registry == nil {
		opts.server.Registry = metrics.NewRegistry()
	}
	handler, table, err := newHandler(HandlerOptions{
		MaxRequestBytes:  opts.maxRequestBytes,
		MaxInflightBytes: opts.maxInflightBytes,
		Logger:           log,
		Registerer:       opts.server.Registry,
	}, kinds)
	if err != nil {
		log.Error("cannot start the conversion webhook", "error", err)
		return 2
	}
	log.Info("conversion webhook starting", "kinds", table.Kinds(),
		"goMemoryLimit", memoryLimit, "goMemoryLimitFrom", opts.memory.source, "maxInflightBytes", handler.MaxInflightBytes())

	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
	defer stop()
	if err := opts.manageCerts(ctx); err != nil {
		if ctx.Err() != nil {
			return 0
		}
		log.Error("cannot keep the certificates", "error", err)
		return 1
	}
	opts.migrateStorage(ctx, kinds)
	if err := server.Serve(ctx, notAtRoot(handler), opts.server); err != nil {
		log.Error("conversion webhook failed", "error", err)
		return 1
	}
	return 0
}

// manageCerts starts keeping the certificates when --manage-certs is on, and
// waits until the first serving pair is in --cert-dir, where the server
// loads it from and reloads it when it changes. It returns ctx's error when
// ctx ended first, or why the management could not start. A replica
// that starts before any certificate exists waits here, unready, for the
// elected one to issue it.
func (o *Options) manageCerts(ctx context.Context) error {
	if o.certs == nil || !o.certs.Enabled() {
		return nil
	}
	ready, failed := make(chan struct{}), make(chan error, 1)
	go func() { failed <- o.certs.Run(ctx, func() { close(ready) }) }()
	select {
	case <-ready:
		return nil
	case err := <-failed:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// notAtRoot answers 404 at /, and serves h on every other path. The API
// server calls the path its CRDs' clientConfig names: /convert, or the
// path of a kind's +crdforge:webhook marker, which the main does not know.
// A request to / is no API server's, but a prober's or a mistyped URL's,
// which a 200 would tell that the webhook is there.
func notAtRoot(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/" {
			http.NotFound(w, r)
			return
		}
		h.ServeHTTP(w, r)
	})
}

// migrateStorage starts --migrate-storage, when on, beside the server: it
// records the versions of kinds this replica converts, and migrates when
// elected. Its failures are logged; the conversions go on.
func (o *Options) migrateStorage(ctx context.Context, kinds []Kind) {
	if o.migrator == nil || !o.migrator.Enabled() {
		return
	}
	served := map[string][]string{}
	for _, k := range kinds {
		var vs []string
		for v := range k.Versions {
			vs = append(vs, v)
		}
		sort.Strings(vs)
		served[k.Group+"/"+k.Kind] = vs
	}
	go func() {
		if err := o.migrator.Run(ctx, served); err != nil && ctx.Err() == nil {
			o.server.Logger.Error("cannot migrate storage", "error", err)
		}
	}()
}
