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
// the running executable's identity: its path, size and modification time,
// as ccache identifies a compiler. Rebuilding the program starts afresh.
//
// A record is a directory of empty files named by the SHA-256 of the
// program's identity, the check's name and the input, in subdirectories by
// the key's first byte, as the go command's build cache lays out its files.
// Entries not used for trimAge are removed, at most once per trimInterval,
// by the run that notices. Every operation is best effort: a record that
// cannot be read or written behaves as an empty one.
package passrecord

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"time"
)

// Env names the environment variable that sets the cache's directory;
// "off" turns the cache off.
const Env = "CRDFORGE_CACHE"

const (
	// trimAge is how long an entry lives without being used.
	trimAge = 5 * 24 * time.Hour
	// trimInterval is how often a run looks for entries to trim.
	trimInterval = 24 * time.Hour
	// touchAge is how stale an entry's time may get before a use
	// refreshes it: refreshing on every use would write on every run.
	touchAge = time.Hour
	// trimFile records when the cache was last trimmed.
	trimFile = "trim.txt"
)

// DefaultDir is the cache's directory: $CRDFORGE_CACHE, or crdforge's
// directory in the user's cache directory (os.UserCacheDir). It is "" when
// CRDFORGE_CACHE is "off".
func DefaultDir() (string, error) {
	switch dir := os.Getenv(Env); dir {
	case "off":
		return "", nil
	case "":
		base, err := os.UserCacheDir()
		if err != nil {
			return "", fmt.Errorf("no cache directory (set %s to one, or to off): %w", Env, err)
		}
		return filepath.Join(base, "crdforge"), nil
	default:
		if !filepath.IsAbs(dir) {
			return "", fmt.Errorf("%s=%s is not an absolute path", Env, dir)
		}
		return dir, nil
	}
}

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
	id, err := programID()
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
	c.trimIfDue()
	return c, nil
}

// programID identifies the running executable by path, size and
// modification time.
func programID() (string, error) {
	exe, err := os.Executable()
	if err != nil {
		return "", err
	}
	fi, err := os.Stat(exe)
	if err != nil {
		return "", err
	}
	return exe + "\x00" + strconv.FormatInt(fi.Size(), 10) + "\x00" + strconv.FormatInt(fi.ModTime().UnixNano(), 10), nil
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
	if now := c.now(); now.Sub(fi.ModTime()) > touchAge {
		_ = os.Chtimes(p, now, now) // in use: keep it from the trim
	}
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
	key := hex.EncodeToString(h.Sum(nil))
	return filepath.Join(c.dir, key[:2], key)
}

// trimIfDue removes the entries unused for trimAge, when the last trim is
// trimInterval old or there was none.
func (c *Record) trimIfDue() {
	marker := filepath.Join(c.dir, trimFile)
	now := c.now()
	if fi, err := os.Stat(marker); err == nil && now.Sub(fi.ModTime()) < trimInterval {
		return
	} else if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return
	}
	// Mark first, so that runs starting meanwhile do not trim too.
	if err := os.WriteFile(marker, []byte(now.UTC().Format(time.RFC3339)+"\n"), 0o666); err != nil {
		return
	}
	_ = os.Chtimes(marker, now, now)
	subdirs, _ := os.ReadDir(c.dir)
	for _, d := range subdirs {
		if !d.IsDir() || len(d.Name()) != 2 {
			continue
		}
		sub := filepath.Join(c.dir, d.Name())
		entries, _ := os.ReadDir(sub)
		for _, e := range entries {
			if fi, err := e.Info(); err == nil && now.Sub(fi.ModTime()) > trimAge {
				_ = os.Remove(filepath.Join(sub, e.Name()))
			}
		}
	}
}
