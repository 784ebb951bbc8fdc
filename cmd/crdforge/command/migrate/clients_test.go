package migrate

import (
	"testing"

	"k8s.io/client-go/rest"
	"k8s.io/client-go/util/flowcontrol"
)

func TestWithRateLimit(t *testing.T) {
	for _, c := range []struct {
		concurrency int
		qps         float32
		burst       int
	}{
		{0, 200, 400}, // the default concurrency
		{2, 200, 400}, // never below the default's
		{8, 400, 800},
	} {
		cfg := &rest.Config{Host: "h"}
		got := withRateLimit(cfg, c.concurrency)
		if got.QPS != c.qps || got.Burst != c.burst || got.Host != "h" {
			t.Errorf("concurrency %d: QPS %v burst %d host %q, want %v %d h", c.concurrency, got.QPS, got.Burst, got.Host, c.qps, c.burst)
		}
		if cfg.QPS != 0 || cfg.Burst != 0 {
			t.Errorf("concurrency %d: the caller's config changed: QPS %v burst %d", c.concurrency, cfg.QPS, cfg.Burst)
		}
	}
	// A config that sets its own limit keeps it.
	if got := withRateLimit(&rest.Config{QPS: 10, Burst: 20}, 8); got.QPS != 10 || got.Burst != 20 {
		t.Errorf("QPS 10 burst 20 became %v %d", got.QPS, got.Burst)
	}
	if got := withRateLimit(&rest.Config{RateLimiter: flowcontrol.NewFakeAlwaysRateLimiter()}, 8); got.QPS != 0 || got.Burst != 0 {
		t.Errorf("a config with a RateLimiter got QPS %v burst %d", got.QPS, got.Burst)
	}
}
