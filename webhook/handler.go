package webhook

import (
	"fmt"
	"log/slog"
	"net/http"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/crdforge/crdforge/webhook/internal/convert"
	"github.com/crdforge/crdforge/webhook/internal/metrics"
	"github.com/crdforge/crdforge/webhook/internal/review"
)

// HandlerOptions configures NewHandler. The zero value is ready to use.
type HandlerOptions struct {
	// MaxRequestBytes bounds a ConversionReview's body; larger requests get
	// 413. Zero means 3 MiB, the API server's own limit.
	MaxRequestBytes int64
	// MaxInflightBytes bounds the request bytes converted at once: a
	// request that does not fit beside those in flight waits up to 10s,
	// then gets 429 with Retry-After. Zero means a twenty-fourth of the Go
	// runtime's memory limit (GOMEMLIMIT, or what the main set with
	// debug.SetMemoryLimit before calling NewHandler), or 24 MiB without
	// one. NewHandler, unlike Run, leaves the process's limit alone.
	MaxInflightBytes int64
	// Logger receives the handler's logs: refused requests and failed
	// conversions. Nil discards them.
	Logger *slog.Logger
	// Registerer, when set, receives the crdforge_conversion_* metrics, for
	// instance controller-runtime's metrics.Registry. Nil records none.
	Registerer prometheus.Registerer
}

// NewHandler returns the ConversionReview handler for kinds, for a main that
// serves it itself, such as on a controller-runtime manager's webhook
// server, where Run would start a server of its own. It answers
// apiextensions.k8s.io/v1 and v1beta1 reviews POSTed to any path.
//
// It fails when the kinds do not make a valid table (a kind listed twice, a
// hub that is not among the versions or not a conversion.Hub, a spoke that
// is not a conversion.Convertible), or when Registerer already holds the
// metrics.
func NewHandler(opts HandlerOptions, kinds ...Kind) (http.Handler, error) {
	h, _, err := newHandler(opts, kinds)
	if err != nil {
		return nil, err
	}
	return h, nil
}

// newHandler is NewHandler, also returning the table for Run to log.
func newHandler(opts HandlerOptions, kinds []Kind) (*review.Handler, *convert.Table, error) {
	entries := make([]convert.Kind, len(kinds))
	for i, k := range kinds {
		entries[i] = convert.Kind(k)
	}
	table, err := convert.NewTable(entries...)
	if err != nil {
		return nil, nil, fmt.Errorf("invalid conversion table: %w", err)
	}
	var m *metrics.Metrics
	if opts.Registerer != nil {
		if m, err = metrics.New(opts.Registerer); err != nil {
			return nil, nil, err
		}
	}
	h := review.NewHandler(table, review.Options{MaxRequestBytes: opts.MaxRequestBytes, MaxInflightBytes: opts.MaxInflightBytes, Metrics: m, Logger: opts.Logger})
	return h, table, nil
}
