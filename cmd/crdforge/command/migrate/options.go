package migrate

import (
	"io"
	"time"
)

// Defaults of Options, also the defaults of the CLI's flags.
const (
	DefaultChunkSize   = 500 // objects per list page
	DefaultConcurrency = 4   // concurrent writers
)

// Defaults of the knobs only this package's tests turn.
const (
	defaultRetries       = 8 // with defaultRetryBase, about 30s of backoff: a webhook's restart
	defaultRetryBase     = 250 * time.Millisecond
	defaultProgressEvery = 100
	defaultStorageWait   = 30 * time.Second
	defaultMigratorWait  = 30 * time.Second
	defaultStoredWait    = 10 * time.Second
)

// fieldManager is the field manager of migrate's writes. (A write that
// changes no field adds no managedFields entry.)
const fieldManager = "crdforge-migrate"

// Options configure Run. Zero values take the defaults.
type Options struct {
	CRD         string // the CustomResourceDefinition's name, <plural>.<group>
	ChunkSize   int64  // objects per list page
	Concurrency int    // concurrent writers
	DryRun      bool   // server-side dry-run writes; storedVersions untouched
	// Engine is EngineAuto (the default), EngineCluster or EngineClient.
	Engine string
	// Timeout bounds the wait for the cluster's migration (0: none); the
	// migration goes on in the cluster after it.
	Timeout time.Duration

	// Progress receives progress output (nil: none): a bar redrawn in place
	// when Terminal, else a line every 100 objects and at the end.
	Progress io.Writer
	Terminal bool

	// Knobs no flag sets; this package's tests set them.
	retries       int           // attempts per request, on conflicts and transient errors (retry.go)
	retryBase     time.Duration // the first backoff after a transient error
	progressEvery int           // objects between progress lines
	storageWait   time.Duration // bound of the discovery wait; see waitStorageVersion
	migratorWait  time.Duration // how long a migration may go untaken before auto falls back
	storedWait    time.Duration // how long to let the migrator set storedVersions itself
}

// withDefaults checks opts and fills in the defaults of its zero values.
func (opts Options) withDefaults() (Options, error) {
	if opts.CRD == "" {
		return opts, usagef("no CustomResourceDefinition named")
	}
	if opts.ChunkSize < 0 || opts.Concurrency < 0 || opts.retries < 0 || opts.Timeout < 0 {
		return opts, usagef("--chunk-size, --concurrency and retries must not be negative")
	}
	if opts.ChunkSize == 0 {
		opts.ChunkSize = DefaultChunkSize
	}
	if opts.Concurrency == 0 {
		opts.Concurrency = DefaultConcurrency
	}
	if opts.retries == 0 {
		opts.retries = defaultRetries
	}
	if opts.retryBase <= 0 {
		opts.retryBase = defaultRetryBase
	}
	if opts.progressEvery <= 0 {
		opts.progressEvery = defaultProgressEvery
	}
	if opts.storageWait <= 0 {
		opts.storageWait = defaultStorageWait
	}
	if opts.migratorWait <= 0 {
		opts.migratorWait = defaultMigratorWait
	}
	if opts.storedWait <= 0 {
		opts.storedWait = defaultStoredWait
	}
	if opts.Engine == "" {
		opts.Engine = EngineAuto
	}
	if err := checkEngine(opts.Engine); err != nil {
		return opts, err
	}
	return opts, nil
}
