// Package passrecord remembers which inputs passed a check that is pure (its
// verdict depends on the input alone) and costly, so that a later run of the
// same program can skip the check for an input it has seen pass.
//
// crdforge uses it for the API server's validation of each CRD it generates:
// validation is a third of a CRD-only run's CPU (CEL compilation above all),
// and `make manifests` in a kubebuilder project runs before every build and
// test, on CRDs that have mostly not changed since the last run.
//
// Only passes are remembered, never failures or warnings: a run whose input
// failed checks it again and reports what the check reports. The verdict
// also depends on the program doing the checking (its validation code and
// the versions of the libraries it was built with), so every key includes
// the running executable's identity (cachedir.ProgramID). Rebuilding the
// program starts afresh.
//
// A record is a directory of empty files named by the SHA-256 of the
// program's identity, the check's name and the input, in subdirectories by
// the key's first byte, as the go command's build cache lays out its files.
// Entries not used for five days are removed, at most once a day, by the
// run that notices (internal/cachedir). Every operation is best effort: a
// record that cannot be read or written behaves as an empty one.
package passrecord

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/crdforge/crdforge/internal/cachedir"
)

// Record is one check's record of passes in a directory. A nil *Record is a
// record that is off: it holds nothing and records nothing.
type Record struct {
	dir string
	// salt is the program's identity and the check's name, which every
	// key hashes before the input.
	salt []byte
	// now is the clock, which the tests move.
	now func() time.Time
}

// Open opens check's record in dir, creating the directory, and trims it if
// it is due. It returns nil, and no error, when dir is "".
func Open(dir, check string) (*Record, error) {
	if dir == "" {
		return nil, nil
	}
	id, err := cachedir.ProgramID()
	if err != nil {
		return nil, fmt.Errorf("validation record %s: %w", dir, err)
	}
	return open(dir, check, id, time.Now)
}

func open(dir, check, id string, now func() time.Time) (*Record, error) {
	if err := os.MkdirAll(dir, 0o777); err != nil {
		return nil, fmt.Errorf("validation record: %w", err)
	}
	c := &Record{dir: dir, salt: []byte(id + "\x00" + check + "\x00"), now: now}
	cachedir.TrimIfDue(dir, now())
	return c, nil
}

// Passed reports whether input passed the check before.
func (c *Record) Passed(input []byte) bool {
	if c == nil {
		return false
	}
	p := c.path(input)
	fi, err := os.Stat(p)
	if err != nil {
		return false
	}
	cachedir.Touch(p, c.now(), fi) // in use: keep it from the trim
	return true
}

// RecordPass records that input passed the check.
func (c *Record) RecordPass(input []byte) {
	if c == nil {
		return
	}
	p := c.path(input)
	if err := os.MkdirAll(filepath.Dir(p), 0o777); err != nil {
		return
	}
	// The entry's existence is the record: an empty file is written
	// whole or not at all, so concurrent runs need no locking.
	if f, err := os.OpenFile(p, os.O_CREATE|os.O_WRONLY, 0o666); err == nil {
		_ = f.Close()
	}
}

func (c *Record) path(input []byte) string {
	h := sha256.New()
	h.Write(c.salt)
	h.Write(input)
	return cachedir.Path(c.dir, hex.EncodeToString(h.Sum(nil)))
}
