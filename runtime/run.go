package runtime

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"
)

// Run is the whole conversion webhook behind a generated main: it completes
// the parsed options, builds the converter for kinds, and serves the
// ConversionReview handler at /convert (and /) with metrics, probes,
// certificate reloading, and a graceful shutdown on SIGTERM or SIGINT. It
// returns the process exit code: 0 after a clean shutdown, 1 on failure,
// 2 for bad options.
func Run(opts *Options, kinds ...Kind) int {
	if err := opts.Complete(); err != nil {
		fmt.Fprintln(os.Stderr, "webhook:", err)
		return 2
	}
	log := opts.Server.Logger
	conv, err := NewConverter(kinds...)
	if err != nil {
		log.Error("invalid conversion table", "error", err)
		return 2
	}
	if opts.Server.Registry == nil {
		opts.Server.Registry = NewRegistry()
	}
	handler := NewHandler(conv, HandlerOptions{
		MaxRequestBytes: opts.MaxRequestBytes,
		Metrics:         NewMetrics(opts.Server.Registry),
		Logger:          log,
	})
	log.Info("conversion webhook starting", "kinds", conv.Kinds())

	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
	defer stop()
	if err := Serve(ctx, handler, opts.Server); err != nil {
		log.Error("conversion webhook failed", "error", err)
		return 1
	}
	return 0
}
