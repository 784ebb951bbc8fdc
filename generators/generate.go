// Package generators runs crdforge's pipeline: one load, the markers, the
// model, then each generator in a fixed order. Generators return files and
// diagnostics; none writes to disk.
package generators

import (
	"cmp"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/crdforge/crdforge/generators/conversion"
	"github.com/crdforge/crdforge/generators/crd"
	"github.com/crdforge/crdforge/generators/deepcopy"
	"github.com/crdforge/crdforge/generators/deploy"
	"github.com/crdforge/crdforge/generators/load"
	"github.com/crdforge/crdforge/generators/model"
	"github.com/crdforge/crdforge/generators/output"
	"github.com/crdforge/crdforge/generators/webhook"
	"github.com/crdforge/crdforge/internal/diag"
	"github.com/crdforge/crdforge/markers"
)

// Config is what one `crdforge generate` run needs.
type Config struct {
	// Dir is the directory patterns and output paths are relative to.
	Dir string
	// Patterns name the packages to load; default ./...
	Patterns []string
	// CRDDir is where CRD YAML goes; default config/crd/bases.
	CRDDir string
	// WebhookMain is where the webhook's main goes; default cmd/webhook/main.go.
	WebhookMain string
	// Only limits the run to the named generators; empty runs all.
	Only []string
}

// Generator turns the model into files.
type Generator interface {
	// Name is how --only refers to the generator.
	Name() string
	// Generate returns the generator's files, and reports problems to diags.
	Generate(m *model.Model, diags *diag.List) []output.File
}

// Owner is a generator whose files can go stale, when a kind loses a version
// or stops converting through a webhook. Owns lists, as glob patterns
// relative to the run's directory or absolute, where the generator writes: a
// file there that starts with crdforge's header and that the run no longer
// produces is deleted (or, with --verify, reported).
type Owner interface {
	Owns(m *model.Model) []string
}

// DefaultCRDDir is where CRDs go unless configured otherwise.
const DefaultCRDDir = "config/crd/bases"

// All lists every generator, in the order they run.
func All(cfg Config) []Generator {
	return []Generator{
		crd.Generator{Dir: cmp.Or(cfg.CRDDir, DefaultCRDDir)},
		deepcopy.Generator{},
		conversion.Generator{},
		webhook.Generator{Main: cmp.Or(cfg.WebhookMain, webhook.DefaultMain)},
		deploy.Generator{Dir: deploy.DefaultDir, CRDDir: cmp.Or(cfg.CRDDir, DefaultCRDDir)},
	}
}

// Names lists the generators' names, in order.
func Names() []string {
	var names []string
	for _, g := range All(Config{}) {
		names = append(names, g.Name())
	}
	return names
}

// Result is the outcome of a run: the files to write and every diagnostic.
// Files is empty whenever Diags holds an error.
type Result struct {
	Files []output.File
	Diags *diag.List
	Model *model.Model
}

// Generate runs the pipeline. It returns an error only when the run cannot
// start (bad configuration, or the go command failing to list packages);
// problems in the user's code are diagnostics in the result.
func Generate(cfg Config) (*Result, error) {
	if cfg.Dir == "" {
		return nil, fmt.Errorf("no directory given")
	}
	dir, err := filepath.Abs(cfg.Dir)
	if err != nil {
		return nil, err
	}
	gens, err := selectGenerators(cfg)
	if err != nil {
		return nil, err
	}
	regs, err := markers.NewRegistries()
	if err != nil {
		return nil, err
	}
	ld, err := load.Packages(dir, cfg.Patterns)
	if err != nil {
		return nil, err
	}
	if len(ld.Roots) == 0 {
		return nil, fmt.Errorf("no Go packages match %s in %s", strings.Join(cfg.Patterns, " "), dir)
	}
	diags := diag.New(ld.Fset)
	res := &Result{Diags: diags}

	ld.Check()
	ld.Errors(diags, nil)
	if diags.HasErrors() {
		// Ill-typed packages would only yield follow-on errors. Still report
		// crdforge's marker errors, which need no types.
		for _, root := range ld.Roots {
			regs.Collect(root, diags)
		}
		return res, nil
	}

	opts := model.Options{Conversions: slices.ContainsFunc(gens, func(g Generator) bool { return g.Name() == "conversion" })}
	m := model.Build(dir, ld, regs, opts, diags)
	res.Model = m
	// Generators only read the model, so they run side by side; their
	// files and diagnostics are gathered in the fixed order.
	files := make([][]output.File, len(gens))
	genDiags := make([]*diag.List, len(gens))
	var wg sync.WaitGroup
	for i, g := range gens {
		genDiags[i] = diag.New(ld.Fset)
		wg.Go(func() { files[i] = g.Generate(m, genDiags[i]) })
	}
	wg.Wait()
	for i := range gens {
		res.Files = append(res.Files, files[i]...)
		diags.Append(genDiags[i])
	}
	ld.Errors(diags, m.Supersedes)
	if diags.HasErrors() {
		res.Files = nil
		return res, nil
	}
	if len(cfg.Only) == 0 {
		// Only a full run knows everything crdforge should have written.
		res.Files = append(res.Files, stale(dir, m, gens, res.Files)...)
	}
	return res, nil
}

// stale lists the files the selected generators own and no longer produce,
// for deletion; output.Plan deletes only those that carry crdforge's header.
func stale(dir string, m *model.Model, gens []Generator, produced []output.File) []output.File {
	made := map[string]bool{}
	for _, f := range produced {
		made[absPath(dir, f.Path)] = true
	}
	var out []output.File
	seen := map[string]bool{}
	for _, g := range gens {
		owner, ok := g.(Owner)
		if !ok {
			continue
		}
		for _, pattern := range owner.Owns(m) {
			matches, _ := filepath.Glob(absPath(dir, pattern))
			for _, p := range matches {
				if !made[p] && !seen[p] {
					seen[p] = true
					out = append(out, output.File{Path: p, Delete: true})
				}
			}
		}
	}
	slices.SortFunc(out, func(a, b output.File) int { return strings.Compare(a.Path, b.Path) })
	return out
}

func absPath(dir, p string) string {
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	return filepath.Join(dir, p)
}

func selectGenerators(cfg Config) ([]Generator, error) {
	all := All(cfg)
	if len(cfg.Only) == 0 {
		return all, nil
	}
	var out []Generator
	for _, name := range cfg.Only {
		i := slices.IndexFunc(all, func(g Generator) bool { return g.Name() == name })
		if i < 0 {
			return nil, fmt.Errorf("unknown generator %q in --only (known: %s)", name, strings.Join(Names(), ", "))
		}
		out = append(out, all[i])
	}
	// Run in the fixed order, whatever order --only named them in.
	slices.SortStableFunc(out, func(a, b Generator) int {
		return slices.IndexFunc(all, func(g Generator) bool { return g.Name() == a.Name() }) -
			slices.IndexFunc(all, func(g Generator) bool { return g.Name() == b.Name() })
	})
	return slices.CompactFunc(out, func(a, b Generator) bool { return a.Name() == b.Name() }), nil
}
