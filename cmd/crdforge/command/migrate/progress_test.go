package migrate

import (
	"errors"
	"strings"
	"testing"
)

func TestProgressBar(t *testing.T) {
	for _, c := range []struct {
		done, total, failed int
		want                string
	}{
		{0, 10, 0, "[>         ] 0/10   0%"},
		{5, 10, 0, "[=====>    ] 5/10  50%"},
		{10, 10, 1, "[==========] 10/10 100% (1 failed)"},
		{3, 0, 0, "[==========] 3/0 100%"},
		{12, 10, 0, "[==========] 12/10 100%"},
	} {
		if got := progressBar(c.done, c.total, c.failed, 10); got != c.want {
			t.Errorf("progressBar(%d, %d, %d) = %q, want %q", c.done, c.total, c.failed, got, c.want)
		}
	}
}

// runProgress feeds outcomes to a migration that expects estimate objects
// and has listed listed, as its workers would, and returns what it printed.
func runProgress(opts Options, estimate, listed int, outcomes ...outcome) string {
	var b strings.Builder
	opts.Progress = &b
	m := &migration{opts: opts, res: &Result{total: listed}}
	m.total.Store(int64(estimate))
	for _, o := range outcomes {
		m.record(obj("ns", "o"), o, 0, errors.New("boom"))
	}
	m.progress(true)
	return b.String()
}

func TestProgressLines(t *testing.T) {
	five := []outcome{written, written, unchanged, written, written}
	for _, c := range []struct {
		name             string
		opts             Options
		estimate, listed int
		outcomes         []outcome
		want             string
	}{
		{"a line every progressEvery objects and one at the end", Options{progressEvery: 2}, 5, 5, five,
			"rewrote 2/5\nrewrote 4/5\nrewrote 5/5\n"},
		{"no second line when the last one just said it", Options{progressEvery: 2}, 4, 4, five[:4],
			"rewrote 2/4\nrewrote 4/4\n"},
		{"no objects: one line at the end", Options{progressEvery: 2}, 0, 0, nil,
			"rewrote 0/0\n"},
		{"a dry run checks", Options{progressEvery: 2, DryRun: true}, 2, 2, five[:2],
			"checked (dry run) 2/2\n"},
		{"failures are told", Options{progressEvery: 2}, 3, 3, []outcome{written, failed, skipped},
			"rewrote 2/3 (1 failed)\nrewrote 3/3 (1 failed)\n"},
		{"more listed than the first page announced: the listed count", Options{progressEvery: 2}, 1, 3, five[:3],
			"rewrote 2/3\nrewrote 3/3\n"},
		{"the terminal bar: drawn in place, at most every 100ms, a newline at the end", Options{Terminal: true, progressEvery: 1}, 2, 2, five[:2],
			"\r" + progressBar(1, 2, 0, 30) + "\r" + progressBar(2, 2, 0, 30) + "\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := runProgress(c.opts, c.estimate, c.listed, c.outcomes...); got != c.want {
				t.Errorf("progress %q, want %q", got, c.want)
			}
		})
	}
}

// brokenWriter fails every write, as a closed pipe does, and counts them.
type brokenWriter struct{ writes int }

func (w *brokenWriter) Write([]byte) (int, error) {
	w.writes++
	return 0, errors.New("broken pipe")
}

func TestProgressStopsAfterAFailedWriteButTheRunGoesOn(t *testing.T) {
	w := &brokenWriter{}
	m := &migration{opts: Options{Progress: w, progressEvery: 1}, res: &Result{total: 3}}
	for range 3 {
		m.record(obj("ns", "o"), written, 0, nil)
	}
	m.progress(true)
	if w.writes != 1 {
		t.Errorf("%d progress writes after the first one failed, want none", w.writes-1)
	}
	if m.done != 3 || m.res.rewritten != 3 {
		t.Errorf("done %d, rewritten %d; want every object counted", m.done, m.res.rewritten)
	}
}
