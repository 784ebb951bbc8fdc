package migrate

import (
	apiext "k8s.io/apiextensions-apiserver/pkg/client/clientset/clientset"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/rest"
)

// clients are the API clients a run needs; tests pass fakes. discovery may
// be nil (no wait for the storage version to show in discovery).
type clients struct {
	ext       apiext.Interface
	dynamic   dynamic.Interface
	discovery discovery.DiscoveryInterface
}

func newClients(cfg *rest.Config) (*clients, error) {
	ext, err := apiext.NewForConfig(cfg)
	if err != nil {
		return nil, err
	}
	dyn, err := dynamic.NewForConfig(cfg)
	if err != nil {
		return nil, err
	}
	disc, err := discovery.NewDiscoveryClientForConfig(cfg)
	if err != nil {
		return nil, err
	}
	return &clients{ext: ext, dynamic: dyn, discovery: disc}, nil
}

// withRateLimit returns cfg, or when cfg sets no client-side rate limit
// (QPS 0) a copy with one that does not hold concurrency writers back
// (client-go's default, 5 per second, would); the API server's priority and
// fairness still applies.
func withRateLimit(cfg *rest.Config, concurrency int) *rest.Config {
	if cfg.QPS != 0 || cfg.RateLimiter != nil {
		return cfg
	}
	cfg = rest.CopyConfig(cfg)
	n := max(concurrency, DefaultConcurrency)
	cfg.QPS = float32(50 * n)
	cfg.Burst = 100 * n
	return cfg
}
