package cachedir

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestDefaultDir(t *testing.T) {
	t.Setenv(Env, "off")
	if dir, err := DefaultDir(); dir != "" || err != nil {
		t.Errorf("off: %q, %v", dir, err)
	}
	t.Setenv(Env, "relative/dir")
	if _, err := DefaultDir(); err == nil {
		t.Error("a relative directory is accepted")
	}
	abs := t.TempDir()
	t.Setenv(Env, abs)
	if dir, err := DefaultDir(); dir != abs || err != nil {
		t.Errorf("set: %q, %v", dir, err)
	}
	t.Setenv(Env, "")
	t.Setenv("XDG_CACHE_HOME", abs)
	if dir, err := DefaultDir(); dir != filepath.Join(abs, "crdforge") || err != nil {
		t.Errorf("unset: %q, %v", dir, err)
	}
}

func TestTrimRemovesOnlyOldEntriesOnlyWhenDue(t *testing.T) {
	dir := t.TempDir()
	now := time.Now()
	old, fresh := Path(dir, "aa01"), Path(dir, "bb02")
	for _, p := range []string{old, fresh} {
		if err := os.MkdirAll(filepath.Dir(p), 0o777); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, nil, 0o666); err != nil {
			t.Fatal(err)
		}
	}
	long := now.Add(-TrimAge - time.Hour)
	if err := os.Chtimes(old, long, long); err != nil {
		t.Fatal(err)
	}
	TrimIfDue(dir, now)
	if _, err := os.Stat(old); err == nil {
		t.Error("an entry unused for longer than TrimAge survived")
	}
	if _, err := os.Stat(fresh); err != nil {
		t.Error("a fresh entry was trimmed")
	}
	// Trimmed an hour ago: not again, however old an entry is.
	if err := os.Chtimes(fresh, long, long); err != nil {
		t.Fatal(err)
	}
	TrimIfDue(dir, now.Add(time.Hour))
	if _, err := os.Stat(fresh); err != nil {
		t.Error("trimmed again within trimInterval")
	}
}
