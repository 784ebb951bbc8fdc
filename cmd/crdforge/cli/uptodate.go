package cli

import (
	"encoding/json"
	"io"
	"path/filepath"
	"slices"
	"time"

	"github.com/crdforge/crdforge/generators/pipeline"
	"github.com/crdforge/crdforge/internal/cachedir"
	"github.com/crdforge/crdforge/internal/diag"
	"github.com/crdforge/crdforge/internal/runcache"
)

// upToDate is generate's up-to-date check: the run cache, and the run's
// key in it. A nil cache (CRDFORGE_CACHE=off, or one that cannot be used)
// never hits and records nothing.
type upToDate struct {
	cache   *runcache.Cache
	run     runcache.Run
	started time.Time
}

// openUpToDate opens the run cache for a run of cfg, completed. A cache
// that cannot be used costs only the hit it would have given, so it is a
// warning and the run goes on in full.
func openUpToDate(stderr io.Writer, cfg pipeline.Config) upToDate {
	u := upToDate{started: time.Now()}
	dir, err := cachedir.DefaultDir()
	if err == nil {
		var fp []byte
		if fp, err = cfg.Fingerprint(); err == nil {
			u.run = runcache.Run{Dir: cfg.Dir, Patterns: cfg.Patterns, Config: fp}
			if u.cache, err = runcache.Open(dir); err == nil {
				return u
			}
		}
	}
	printErrf(stderr, "crdforge: warning: no up-to-date check: %v", err)
	return u
}

// replay is what a recorded run printed that a hit prints again: its
// diagnostics (warnings: a run with errors is never recorded), which must
// not vanish because nothing changed, and the lines after its summary.
type replay struct {
	Diags []diag.Diagnostic `json:"diags,omitempty"`
	Lines []string          `json:"lines,omitempty"`
}

// lookup finishes the run when its inputs are as recorded: it prints what
// the recorded run printed, but "up to date" for the files written, and
// reports true.
func (u upToDate) lookup(stdout, stderr io.Writer, dir, format string, verify, verbose bool) (bool, error) {
	hit, ok := u.cache.Lookup(u.run)
	if !ok {
		return false, nil
	}
	var r replay
	if err := json.Unmarshal(hit.Replay, &r); err != nil {
		return false, nil // another build's record: run in full
	}
	if format == formatJSON {
		if err := writeJSONDiagnostics(stdout, dir, r.Diags); err != nil {
			return true, err
		}
	} else {
		printDiagnostics(stderr, dir, r.Diags, verbose)
	}
	if verify {
		return true, nil // as a run that finds nothing stale: silent
	}
	printErrf(stderr, "crdforge: up to date, nothing written (%d inputs unchanged)", hit.Inputs)
	for _, line := range r.Lines {
		printErr(stderr, line)
	}
	return true, nil
}

// record records a run that left the tree up to date: it wrote what
// changed, or, with --verify, found nothing stale. A run that could not be
// recorded (an input changed while it ran) only means the next one runs in
// full, so nothing is said.
func (u upToDate) record(cfg pipeline.Config, res *pipeline.Result) {
	if u.cache == nil {
		return
	}
	b, err := json.Marshal(replay{Diags: res.Diags.Items(), Lines: crdSummary(res.Files)})
	if err != nil {
		return
	}
	in := runcache.Inputs{
		PackageDirs: res.Sources.PackageDirs,
		Files:       slices.Concat(res.Sources.Files, cfg.InputFiles()),
		Dirs:        slices.Concat(cfg.OutputDirs(), cfg.InputDirs()),
	}
	var outputs []string
	for _, f := range res.Files {
		p := f.Path
		if !filepath.IsAbs(p) {
			p = filepath.Join(cfg.Dir, p)
		}
		outputs = append(outputs, p)
	}
	_ = u.cache.Record(u.run, in, outputs, u.started, b)
}
