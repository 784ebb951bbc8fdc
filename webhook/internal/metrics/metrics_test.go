package metrics_test

import (
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/crdforge/crdforge/webhook/internal/metrics"
	"github.com/crdforge/crdforge/webhook/internal/testkit"
)

func mustNew(t *testing.T, reg prometheus.Registerer) *metrics.Metrics {
	t.Helper()
	m, err := metrics.New(reg)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// seriesCount is the number of series of the metric name, -1 when there
// is no such metric.
func seriesCount(t *testing.T, g prometheus.Gatherer, name string) int {
	t.Helper()
	mfs, err := g.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, mf := range mfs {
		if mf.GetName() == name {
			return len(mf.GetMetric())
		}
	}
	return -1
}

func TestMetricsRecordRequestsObjectsAndFailures(t *testing.T) {
	reg := prometheus.NewRegistry()
	m := mustNew(t, reg)
	m.ObserveRequest(200, 50*time.Microsecond)
	m.ObserveRequest(200, 3*time.Millisecond)
	m.ObserveRequest(400, 20*time.Second)
	m.ObjectsConverted(5)
	m.ObjectsConverted(0)
	m.ObjectsConverted(-1)
	m.ObjectFailed()
	m.Failure("bad_request")
	m.Failure("too_large")
	m.Failure("too_large")

	for _, c := range []struct {
		name, label, value string
		want               float64
	}{
		{"crdforge_conversion_requests_total", "code", "200", 2},
		{"crdforge_conversion_requests_total", "code", "400", 1},
		{"crdforge_conversion_objects_total", "result", "converted", 5},
		{"crdforge_conversion_objects_total", "result", "failed", 1},
		{"crdforge_conversion_failures_total", "reason", "bad_request", 1},
		{"crdforge_conversion_failures_total", "reason", "too_large", 2},
		{"crdforge_conversion_failures_total", "reason", "panic", 0},
	} {
		if got := testkit.CounterValue(t, reg, c.name, c.label, c.value); got != c.want {
			t.Errorf("%s{%s=%q} = %v, want %v", c.name, c.label, c.value, got, c.want)
		}
	}

	mfs, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	i := 0
	for i < len(mfs) && mfs[i].GetName() != "crdforge_conversion_request_duration_seconds" {
		i++
	}
	if i == len(mfs) {
		t.Fatal("no duration histogram")
	}
	h := mfs[i].GetMetric()[0].GetHistogram()
	if h.GetSampleCount() != 3 {
		t.Errorf("%d durations observed, want 3", h.GetSampleCount())
	}
	b := h.GetBucket()
	if first, last := b[0].GetUpperBound(), b[len(b)-1].GetUpperBound(); first != 0.0001 || last != 10 {
		t.Errorf("buckets from %v to %v, want 100µs to 10s", first, last)
	}
	if b[0].GetCumulativeCount() != 1 || b[len(b)-1].GetCumulativeCount() != 2 {
		t.Errorf("50µs, 3ms and 20s fell into the buckets as %v", b)
	}
}

// Series with a known, fixed set of label values exist from the start, so
// that queries see zeros rather than nothing.
func TestMetricsKnownSeriesStartAtZero(t *testing.T) {
	reg := prometheus.NewRegistry()
	mustNew(t, reg)
	if n := seriesCount(t, reg, "crdforge_conversion_failures_total"); n != 8 {
		t.Fatalf("%d failure series, want 8", n)
	}
	for _, r := range []string{"bad_request", "method_not_allowed", "unsupported_media_type", "too_large", "overloaded", "unknown_kind", "conversion_error", "panic"} {
		if got := testkit.CounterValue(t, reg, "crdforge_conversion_failures_total", "reason", r); got != 0 {
			t.Errorf("reason %s starts at %v", r, got)
		}
	}
	if n := seriesCount(t, reg, "crdforge_conversion_objects_total"); n != 2 {
		t.Errorf("%d object series, want 2", n)
	}
}

func TestMetricsNilIsANoOp(t *testing.T) {
	var m *metrics.Metrics
	m.ObserveRequest(200, time.Millisecond)
	m.ObjectsConverted(3)
	m.ObjectFailed()
	m.Failure("panic")

	// Unregistered metrics work too.
	u := mustNew(t, nil)
	u.ObserveRequest(500, time.Millisecond)
	u.Failure("conversion_error")
}

// Registering twice with one registry, as two handlers given the same
// registerer would, is an error; a registration that fails halfway leaves
// the registry as it was.
func TestMetricsRegisteringTwiceIsAnError(t *testing.T) {
	reg := prometheus.NewRegistry()
	mustNew(t, reg)
	if _, err := metrics.New(reg); err == nil {
		t.Error("registering the metrics twice with one registry succeeded")
	}

	reg = prometheus.NewRegistry()
	reg.MustRegister(prometheus.NewCounter(prometheus.CounterOpts{Name: "crdforge_conversion_objects_total", Help: "taken"}))
	if _, err := metrics.New(reg); err == nil {
		t.Fatal("registering over a taken name succeeded")
	}
	if n := seriesCount(t, reg, "crdforge_conversion_requests_total"); n != -1 {
		t.Errorf("a failed registration left crdforge_conversion_requests_total behind (%d series)", n)
	}
}

func TestMetricsNewRegistryHasGoAndProcessCollectors(t *testing.T) {
	reg := metrics.NewRegistry()
	if seriesCount(t, reg, "go_goroutines") < 0 {
		t.Error("no go_goroutines")
	}
	if seriesCount(t, reg, "process_start_time_seconds") < 0 {
		t.Log("no process metrics on this platform")
	}
}
