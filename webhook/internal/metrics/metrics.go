// Package metrics holds the conversion webhook's Prometheus collectors
// (crdforge_conversion_*) and the registry that /metrics exposes.
package metrics

import (
	"fmt"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
)

// failureReasons are the reasons the conversion handler reports in
// crdforge_conversion_failures_total. They are set to zero up front so that
// rate() and absent() queries work before the first failure.
var failureReasons = []string{
	"bad_request", "method_not_allowed", "unsupported_media_type",
	"too_large", "overloaded", "unknown_kind", "conversion_error", "panic",
}

// Metrics holds the conversion webhook's Prometheus collectors. A nil
// *Metrics is valid and records nothing, so callers and tests may skip
// metrics altogether.
type Metrics struct {
	requests *prometheus.CounterVec
	duration prometheus.Histogram
	objects  *prometheus.CounterVec
	failures *prometheus.CounterVec
	// ok and converted are the series every successful request adds to,
	// looked up once rather than by label on each request.
	ok, converted prometheus.Counter
}

// New creates the conversion webhook's collectors and registers them with
// reg. It fails when reg holds collectors of the same names already, such as
// those of another handler. A nil reg leaves them unregistered, which suits
// tests.
func New(reg prometheus.Registerer) (*Metrics, error) {
	m := &Metrics{
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "crdforge_conversion_requests_total",
			Help: "ConversionReview requests handled, by HTTP status code.",
		}, []string{"code"}),
		duration: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name: "crdforge_conversion_request_duration_seconds",
			Help: "Time taken to handle a ConversionReview request, in seconds.",
			// 100µs to 10s: a conversion is normally well under a
			// millisecond per object, and the API server gives up after
			// at most 30s.
			Buckets: []float64{0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10},
		}),
		objects: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "crdforge_conversion_objects_total",
			Help: "Objects in ConversionReview requests, by result (converted or failed).",
		}, []string{"result"}),
		failures: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "crdforge_conversion_failures_total",
			Help: "Failed ConversionReview requests, by reason.",
		}, []string{"reason"}),
	}
	m.objects.WithLabelValues("converted")
	m.objects.WithLabelValues("failed")
	m.ok = m.requests.WithLabelValues("200")
	m.converted = m.objects.WithLabelValues("converted")
	for _, r := range failureReasons {
		m.failures.WithLabelValues(r)
	}
	if reg == nil {
		return m, nil
	}
	var registered []prometheus.Collector
	for _, c := range []prometheus.Collector{m.requests, m.duration, m.objects, m.failures} {
		if err := reg.Register(c); err != nil {
			// Leave reg as it was, so that the caller may retry or go on
			// without these metrics.
			for _, r := range registered {
				reg.Unregister(r)
			}
			return nil, fmt.Errorf("registering the conversion metrics: %w", err)
		}
		registered = append(registered, c)
	}
	return m, nil
}

// NewRegistry returns a fresh registry holding the Go runtime and process
// collectors. Register the webhook's Metrics with it and serve it on
// /metrics (server.Options.Registry) so that /metrics exposes both.
func NewRegistry() *prometheus.Registry {
	reg := prometheus.NewRegistry()
	reg.MustRegister(
		collectors.NewGoCollector(),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
	)
	return reg
}

// ObserveRequest records a handled request: its HTTP status code and how
// long it took.
func (m *Metrics) ObserveRequest(code int, d time.Duration) {
	if m == nil {
		return
	}
	if code == 200 {
		m.ok.Inc()
	} else {
		m.requests.WithLabelValues(strconv.Itoa(code)).Inc()
	}
	m.duration.Observe(d.Seconds())
}

// ObjectsConverted records n objects converted successfully.
func (m *Metrics) ObjectsConverted(n int) {
	if m == nil || n <= 0 {
		return
	}
	m.converted.Add(float64(n))
}

// ObjectFailed records one object whose conversion failed.
func (m *Metrics) ObjectFailed() {
	if m == nil {
		return
	}
	m.objects.WithLabelValues("failed").Inc()
}

// Failure records a failed request. reason is a short label from a small
// fixed set (bad_request, method_not_allowed, unsupported_media_type,
// too_large, overloaded, unknown_kind, conversion_error, panic): every distinct value is
// a time series.
func (m *Metrics) Failure(reason string) {
	if m == nil {
		return
	}
	if reason == "" {
		reason = "unknown"
	}
	m.failures.WithLabelValues(reason).Inc()
}
