// Package cachedir is where crdforge's caches live, and how they stay
// small: the directory ($CRDFORGE_CACHE, or crdforge's directory in the
// user's cache directory), the running program's identity that keys what
// depends on it, and the trim that removes entries nobody used lately.
//
// Each cache (internal/passrecord's records of checks passed,
// internal/runcache's records of up-to-date runs) lays its entries out as
// the go command's build cache does: files named by a hex key, in
// subdirectories named by the key's first byte, so that a trim finds them
// without knowing what they hold.
package cachedir

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"time"
)

// Env names the environment variable that sets the cache's directory;
// "off" turns every cache off.
const Env = "CRDFORGE_CACHE"

const (
	// TrimAge is how long an entry lives without being used.
	TrimAge = 5 * 24 * time.Hour
	// trimInterval is how often a run looks for entries to trim.
	trimInterval = 24 * time.Hour
	// touchAge is how stale an entry's time may get before a use
	// refreshes it: refreshing on every use would write on every run.
	touchAge = time.Hour
	// trimFile records when the directory was last trimmed.
	trimFile = "trim.txt"
)

// DefaultDir is the caches' directory: $CRDFORGE_CACHE, or crdforge's
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

// ProgramID identifies the running executable by path, size and
// modification time, as ccache identifies a compiler: what a cache holds
// depends on the code that made it, and rebuilding the program starts
// afresh. Hashing the executable would cost more than most hits save.
func ProgramID() (string, error) {
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

// Path is where the entry of key (hex, at least two characters) lives in
// dir.
func Path(dir, key string) string {
	return filepath.Join(dir, key[:2], key)
}

// Touch marks the entry at path as used at now, unless it was marked
// lately, so that the trim keeps it.
func Touch(path string, now time.Time, fi fs.FileInfo) {
	if now.Sub(fi.ModTime()) > touchAge {
		_ = os.Chtimes(path, now, now)
	}
}

// TrimIfDue removes the entries of dir unused for TrimAge, when its last
// trim is trimInterval old or there was none. It is best effort: what
// cannot be removed stays.
func TrimIfDue(dir string, now time.Time) {
	marker := filepath.Join(dir, trimFile)
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
	subdirs, _ := os.ReadDir(dir)
	for _, d := range subdirs {
		if !d.IsDir() || len(d.Name()) != 2 {
			continue
		}
		sub := filepath.Join(dir, d.Name())
		entries, _ := os.ReadDir(sub)
		for _, e := range entries {
			if fi, err := e.Info(); err == nil && now.Sub(fi.ModTime()) > TrimAge {
				_ = os.Remove(filepath.Join(sub, e.Name()))
			}
		}
	}
}
