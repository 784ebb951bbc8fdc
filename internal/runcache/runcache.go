// Package runcache remembers the runs of crdforge generate that left the
// tree up to date, so that a later run whose inputs did not change can
// return after hashing them, writing nothing, as `go build` does with its
// action cache. `make manifests` runs generate before every build of a
// kubebuilder project, mostly on a tree where nothing it reads has changed;
// such a run would otherwise load, type-check and print everything again.
//
// A run is keyed by what it was asked (Run: the directory, the patterns, the
// completed configuration) and by the program that ran it (its identity,
// cachedir.ProgramID). Under the key, a manifest lists what the run depended
// on, as the run found it once it had written its output: the content hash
// of every input file and of every output file, and the listing of every
// directory whose contents matter (so that a new package, a new Go file or
// a stray file where a generator owns files is seen). A later run with the
// same key recomputes those hashes and listings; all equal is a hit. Any
// difference is a miss, and the caller runs in full: there is no partial
// reuse, so a miss can cost nothing but the hashing.
//
// Manifests live in $CRDFORGE_CACHE/runs (internal/cachedir), trimmed as
// the other caches are. Every operation is best effort: a manifest that
// cannot be read is a miss, one that cannot be written is not recorded.
package runcache

import (
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/crdforge/crdforge/internal/cachedir"
)

// Cache is the record of up-to-date runs in a directory. A nil *Cache is a
// cache that is off: it never hits and records nothing.
type Cache struct {
	dir string
	// program is the running executable's identity, part of every key:
	// another build of crdforge may generate other output.
	program string
	now     func() time.Time
}

// Open opens the cache in dir's "runs" subdirectory, creating it, and
// trims it if that is due. It returns nil, and no error, when dir is "".
func Open(dir string) (*Cache, error) {
	if dir == "" {
		return nil, nil
	}
	id, err := cachedir.ProgramID()
	if err != nil {
		return nil, fmt.Errorf("run cache %s: %w", dir, err)
	}
	return OpenAs(dir, id, time.Now)
}

// OpenAs is Open for a program of the given identity, on the given clock:
// tests play a rebuilt binary and the passing of days with it.
func OpenAs(dir, program string, now func() time.Time) (*Cache, error) {
	runs := filepath.Join(dir, "runs")
	if err := os.MkdirAll(runs, 0o777); err != nil {
		return nil, fmt.Errorf("run cache: %w", err)
	}
	cachedir.TrimIfDue(runs, now())
	return &Cache{dir: runs, program: program, now: now}, nil
}

// Hit is what a run that found its inputs unchanged needs to finish as the
// recorded run did.
type Hit struct {
	// Inputs is how many input files were found unchanged.
	Inputs int
	// Replay is what the recorded run gave Record to replay (its
	// diagnostics, its summary's lines), as it gave it.
	Replay []byte
}

// Lookup reports whether run was recorded with every input and output as
// they are now.
func (c *Cache) Lookup(run Run) (Hit, bool) {
	if c == nil {
		return Hit{}, false
	}
	path := cachedir.Path(c.dir, c.key(run))
	m, fi, err := readManifest(path)
	if err != nil || !m.unchanged() {
		return Hit{}, false
	}
	cachedir.Touch(path, c.now(), fi) // in use: keep it from the trim
	return Hit{Inputs: m.Inputs, Replay: m.Replay}, true
}

// Record records run as up to date: its inputs as they are now, and its
// outputs, the files it wrote or found as it would have written them (or
// removed: absent ones stay absent). started is when the run began: an
// input modified since may have been read before the change, so such a run
// is not recorded (and Record says why). replay is what Lookup hands back.
func (c *Cache) Record(run Run, in Inputs, outputs []string, started time.Time, replay []byte) error {
	if c == nil {
		return nil
	}
	m, err := snapshot(run, in, outputs, started)
	if err != nil {
		return err
	}
	m.Replay = replay
	return writeManifest(cachedir.Path(c.dir, c.key(run)), m)
}
