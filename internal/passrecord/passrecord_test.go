package passrecord

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// clock is a settable now.
type clock struct{ t time.Time }

func (c *clock) now() time.Time { return c.t }

func TestPassesAreKeptPerProgramAndCheck(t *testing.T) {
	dir := t.TempDir()
	clk := &clock{time.Now()}
	c, err := open(dir, "validation", "prog-1", clk.now)
	if err != nil {
		t.Fatal(err)
	}
	in := []byte("apiVersion: apiextensions.k8s.io/v1\n")
	if c.Passed(in) {
		t.Fatal("an empty cache reports a pass")
	}
	c.RecordPass(in)
	if !c.Passed(in) {
		t.Fatal("a recorded pass is not reported")
	}
	if c.Passed(append(in, ' ')) {
		t.Fatal("another input reports the pass")
	}

	again, _ := open(dir, "validation", "prog-1", clk.now)
	if !again.Passed(in) {
		t.Fatal("a pass is not kept for the next run of the same program")
	}
	rebuilt, _ := open(dir, "validation", "prog-2", clk.now)
	if rebuilt.Passed(in) {
		t.Fatal("a pass is reported to another build of the program")
	}
	other, _ := open(dir, "lint", "prog-1", clk.now)
	if other.Passed(in) {
		t.Fatal("a pass is reported to another check")
	}
}

func TestAnOffCacheHoldsNothing(t *testing.T) {
	c, err := Open("", "validation")
	if err != nil || c != nil {
		t.Fatalf("Open(\"\") = %v, %v; want nil, nil", c, err)
	}
	c.RecordPass([]byte("x"))
	if c.Passed([]byte("x")) {
		t.Fatal("an off cache reports a pass")
	}
}

func TestOpenIdentifiesTheRunningProgram(t *testing.T) {
	dir := t.TempDir()
	c, err := Open(dir, "validation")
	if err != nil {
		t.Fatal(err)
	}
	c.RecordPass([]byte("x"))
	if d, _ := Open(dir, "validation"); !d.Passed([]byte("x")) {
		t.Fatal("the same executable does not find its own pass")
	}
	exe, _ := os.Executable()
	fi, _ := os.Stat(exe)
	// A rebuilt program is one with another modification time.
	later := fi.ModTime().Add(time.Second)
	if err := os.Chtimes(exe, later, later); err != nil {
		t.Skipf("cannot touch the test binary: %v", err)
	}
	defer func() { _ = os.Chtimes(exe, fi.ModTime(), fi.ModTime()) }()
	if d, _ := Open(dir, "validation"); d.Passed([]byte("x")) {
		t.Fatal("a rebuilt executable finds the old build's pass")
	}
}

func TestTrimRemovesUnusedEntriesOncePerInterval(t *testing.T) {
	dir := t.TempDir()
	clk := &clock{time.Now()}
	c, _ := open(dir, "validation", "prog", clk.now)
	used, unused := []byte("used"), []byte("unused")
	c.RecordPass(used)
	c.RecordPass(unused)
	old := clk.t
	for _, in := range [][]byte{used, unused} {
		if err := os.Chtimes(c.path(in), old, old); err != nil {
			t.Fatal(err)
		}
	}

	// Four days on, a run uses one entry: its time is refreshed.
	clk.t = old.Add(4 * 24 * time.Hour)
	c, _ = open(dir, "validation", "prog", clk.now)
	if !c.Passed(used) {
		t.Fatal("entry lost before its time")
	}
	// (That run trimmed too, its last trim being four days old, but
	// nothing was five days old yet.) Six days on, the other entry is
	// unused for longer than trimAge, and the last trim two days old.
	clk.t = old.Add(6 * 24 * time.Hour)
	c, _ = open(dir, "validation", "prog", clk.now)
	if c.Passed(unused) {
		t.Fatal("an entry unused for six days survived the trim")
	}
	if !c.Passed(used) {
		t.Fatal("an entry used two days ago was trimmed")
	}

	// Within a day of the last trim, nothing is trimmed.
	c.RecordPass(unused)
	stale := clk.t.Add(-10 * 24 * time.Hour)
	if err := os.Chtimes(c.path(unused), stale, stale); err != nil {
		t.Fatal(err)
	}
	clk.t = clk.t.Add(time.Hour)
	c, _ = open(dir, "validation", "prog", clk.now)
	if _, err := os.Stat(c.path(unused)); err != nil {
		t.Fatal("trimmed again within a day of the last trim")
	}
}

func TestAnUnwritableCacheIsAnError(t *testing.T) {
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, nil, 0o666); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(filepath.Join(file, "cache"), "validation"); err == nil {
		t.Fatal("a cache under a file opened")
	}
}
