package automigrate

import (
	"context"
	"log/slog"
	"time"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/rest"

	"github.com/crdforge/crdforge/webhook/internal/lease"
	"github.com/crdforge/crdforge/webhook/storagemigrate"
)

// fieldManager is the field manager of the migration's writes.
const fieldManager = "crdforge-webhook-migrate"

// config is one replica's --migrate-storage, as Complete made it.
type config struct {
	namespace, state, service string
	crds                      []string
	replica                   string
	syncPeriod, retryBackoff  time.Duration
	concurrency               int
	// engine is --migrate-engine; migratorWait how long a
	// StorageVersionMigration may stay untaken.
	engine       string
	migratorWait time.Duration
	log          *slog.Logger
	metrics      *metrics
}

var configMapResource = schema.GroupVersionResource{Version: "v1", Resource: "configmaps"}

// controller holds one replica's clients and what its elected runs keep.
type controller struct {
	config
	dyn        dynamic.Interface
	configMaps dynamic.ResourceInterface
	crdClient  dynamic.NamespaceableResourceInterface
	events     *eventRecorder
	// failures counts each CRD's failed runs in a row; retryAt is when
	// the next may start. Only the elected replica's lead touches them.
	failures map[string]int
	retryAt  map[string]time.Time
	// waiting is the last reason each CRD waited, so that an Event is sent
	// when it changes, not every sync.
	waiting map[string]string
}

// run records this replica's versions every syncPeriod, and migrates while
// elected, until ctx ends.
func run(ctx context.Context, cfg config, kube *rest.Config, served map[string][]string) error {
	dyn, err := dynamic.NewForConfig(kube)
	if err != nil {
		return err
	}
	c := &controller{config: cfg, dyn: dyn, configMaps: dyn.Resource(configMapResource).Namespace(cfg.namespace),
		crdClient: dyn.Resource(storagemigrate.CRDResource),
		events:    &eventRecorder{events: dyn.Resource(eventResource).Namespace(cfg.namespace), namespace: cfg.namespace, component: cfg.state, log: cfg.log},
		failures:  map[string]int{}, retryAt: map[string]time.Time{}, waiting: map[string]string{}}
	go lease.Campaign(ctx, dyn.Resource(lease.Resource).Namespace(cfg.namespace), cfg.state, cfg.replica, cfg.log, c.lead)
	c.record(ctx, served)
	return ctx.Err()
}

// record writes this replica's record every syncPeriod until ctx ends,
// then removes it.
func (c *controller) record(ctx context.Context, served map[string][]string) {
	t := time.NewTicker(c.syncPeriod)
	defer t.Stop()
	for {
		if err := writeRecord(ctx, c.configMaps, c.state, c.replica, record{Kinds: served, At: time.Now()}); err != nil && ctx.Err() == nil {
			c.log.Error("recording the versions this replica converts", "configMap", c.namespace+"/"+c.state, "error", err)
		}
		select {
		case <-ctx.Done():
			stop, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			if err := dropRecord(stop, c.configMaps, c.state, c.replica); err != nil {
				c.log.Debug("removing this replica's record", "error", err)
			}
			cancel()
			return
		case <-t.C:
		}
	}
}

// lead checks every CRD at once, then every syncPeriod, while this replica
// holds the Lease (ctx). A migration cut short by a lost Lease is resumed
// by the next elected replica: every rewrite is idempotent.
func (c *controller) lead(ctx context.Context) {
	c.log.Info("migrating storage when needed", "replica", c.replica, "crds", c.crds)
	t := time.NewTicker(c.syncPeriod)
	defer t.Stop()
	for {
		for _, name := range c.crds {
			if ctx.Err() != nil {
				return
			}
			c.check(ctx, name)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}
