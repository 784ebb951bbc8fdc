package webhook

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/crdforge/crdforge/webhook/internal/metrics"
	"github.com/crdforge/crdforge/webhook/internal/server"
)

// Run is the whole conversion webhook behind a main: it checks the parsed
// options, builds the conversion table of kinds, and serves the
// ConversionReview handler (on every path) with metrics, health probes,
// certificate reloading, and a graceful shutdown on SIGTERM or SIGINT. It
// returns the process exit code: 0 after a clean shutdown, 1 on failure,
// 2 for bad options or a bad table.
func Run(opts *Options, kinds ...Kind) int {
	if err := opts.complete(); err != nil {
		fmt.Fprintln(os.Stderr, "webhook:", err)
		return 2
	}
	log := opts.server.Logger
	if opts.server.Registry == nil {
		opts.server.Registry = metrics.NewRegistry()
	}
	handler, table, err := newHandler(HandlerOptions{
		MaxRequestBytes: opts.maxRequestBytes,
		Logger:          log,
		Registerer:      opts.server.Registry,
	}, kinds)
	if err != nil {
		log.Error("cannot start the conversion webhook", "error", err)
		return 2
	}
	log.Info("conversion webhook starting", "kinds", table.Kinds())

	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
	defer stop()
	if err := server.Serve(ctx, handler, opts.server); err != nil {
		log.Error("conversion webhook failed", "error", err)
		return 1
	}
	return 0
}
