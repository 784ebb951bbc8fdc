// Package pipeline runs crdforge's pipeline: one load, the markers, the
// model, then each generator in a fixed order. Generators return files and
// diagnostics; none writes to disk.
//
// Its Go API carries no compatibility promise before v1 (ARCHITECTURE.md):
// crdforge's binary is the product.
package pipeline

import (
	"fmt"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"

	"sigs.k8s.io/controller-tools/pkg/loader"

	"github.com/crdforge/crdforge/generators/crd"
	"github.com/crdforge/crdforge/generators/load"
	"github.com/crdforge/crdforge/generators/model"
	"github.com/crdforge/crdforge/generators/plan"
	"github.com/crdforge/crdforge/internal/diag"
	"github.com/crdforge/crdforge/internal/kubeversion"
	"github.com/crdforge/crdforge/internal/output"
	"github.com/crdforge/crdforge/internal/samples"
	"github.com/crdforge/crdforge/markers"
)

// Generator turns the model into files.
type Generator interface {
	// Name is how --only refers to the generator.
	Name() string
	// Needs says which optional parts of the model the generator reads.
	Needs() model.Options
	// Generate returns the generator's files, and reports problems to diags.
	Generate(m *model.Model, diags *diag.List) []output.File
	// Owns lists, as glob patterns relative to the run's directory or
	// absolute, where the generator writes. A file there that starts with
	// crdforge's header and that a full run no longer produces (a kind lost
	// a version, or stopped converting through a webhook) is deleted, or,
	// with --verify, reported.
	Owns(m *model.Model) []string
}

// Result is the outcome of a run: the files to write and every diagnostic.
// Files is empty whenever Diags holds an error.
type Result struct {
	Files []output.File
	Diags *diag.List
	Model *model.Model
	// Sources is what of the local disk the run's load depended on
	// (load.Sources); set on a run that built a model.
	Sources load.Sources
	// needsCompleteTypes says the model was built on types a partial load
	// left incomplete, and must be built again on a complete load.
	needsCompleteTypes bool
}

// Generate runs the pipeline. It returns an error only when the run cannot
// start (bad configuration, or the go command failing to list packages);
// problems in the user's code are diagnostics in the result.
func Generate(cfg Config) (*Result, error) {
	cfg, err := cfg.Complete()
	if err != nil {
		return nil, err
	}
	res, ld, gens, err := buildModel(cfg, cfg.gens)
	if err != nil || res.Model == nil {
		return res, err
	}
	m, diags := res.Model, res.Diags
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
	var kept []Generator // those whose files are written: a dropped scaffold's old files stay too
	var crds []output.File
	needs := newModuleNeeds(cfg.Dir)
	for i, g := range gens {
		out := dropScaffold(cfg.Dir, m, g, files[i], diags)
		if out != nil || files[i] == nil {
			kept = append(kept, g)
		}
		if g.Name() == crdName {
			crds = out
		}
		needs.add(g, out)
		for _, f := range out {
			if strings.HasSuffix(f.Path, ".go") {
				f.Content = output.WithLicense(f.Content, cfg.header)
			}
			res.Files = append(res.Files, f)
		}
		diags.Append(genDiags[i])
	}
	// Before the build says it: a module below what generated code needs.
	needs.check(diags)
	// Before kubectl says it: a sample object the new CRDs refuse. CRDs
	// in error are no schema to check against.
	if crds != nil && cfg.validatesSamples() && !diags.HasErrors() {
		samples.Check(cfg.Dir, crds, diags)
	}
	// Before a cluster says it: an object the oldest cluster targeted lacks.
	if cfg.kubeVersion != nil {
		kubeversion.Check(cfg.Dir, res.Files, *cfg.kubeVersion, diags)
	}
	finish(cfg, ld, res)
	res.Sources = ld.Sources()
	if diags.HasErrors() {
		res.Files = nil
		return res, nil
	}
	if !cfg.partial {
		// Only a full run knows everything crdforge should have written.
		res.Files = append(res.Files, stale(cfg.Dir, m, kept, res.Files)...)
	}
	return res, nil
}

// Model runs the pipeline up to the model, for the generators cfg selects
// (what they need of the load and the model) without running them: for a
// caller that reads the model itself and needs none of the generators'
// printed files (crdforge check builds CRD objects from it). Result.Files
// is empty; Result.Model is nil when the packages do not type-check.
func Model(cfg Config) (*Result, error) {
	cfg, err := cfg.Complete()
	if err != nil {
		return nil, err
	}
	res, ld, _, err := buildModel(cfg, nil)
	if err != nil || res.Model == nil {
		return res, err
	}
	finish(cfg, ld, res)
	return res, nil
}

// buildModel loads cfg's packages and builds the model, starting gens
// (those of them that can start before the model is complete) on its kinds
// as it builds them. It returns the generators to run on the model: gens,
// the started ones in their place. A result without a model holds the
// errors that stopped it.
//
// A run whose generators need only what schemas reach (CRDs alone) checks
// only that, as controller-gen does; if settling the conversion strategies
// then looked into a type that check left incomplete, the run loads and builds
// again, checking everything, as a full run does from the start.
func buildModel(cfg Config, gens []Generator) (*Result, *load.Result, []Generator, error) {
	opts := cfg.modelOptions()
	filters := checkFilters(cfg.gens, opts)
	if filters == nil {
		return buildModelChecking(cfg, opts, nil, gens)
	}
	opts.PartialTypes = true
	res, ld, run, err := buildModelChecking(cfg, opts, filters, gens)
	if err != nil || res.Model == nil || !res.needsCompleteTypes {
		return res, ld, run, err
	}
	stop(run)
	opts.PartialTypes = false
	return buildModelChecking(cfg, opts, nil, gens)
}

// checkFilterer is a generator that, like controller-gen's, needs only part
// of the imports' types: those below the nodes its filter passes.
type checkFilterer interface {
	CheckFilter() loader.NodeFilter
}

// checkFilters are the type checker's node filters for a run of gens: the
// generators' own when each has one, as controller-gen's runtime combines
// them, and none (check everything) when any generator, or a part of the
// model that opts asks for, has none. CRDs alone need what controller-gen's
// crd generator needs; conversions and the webhook need every type.
func checkFilters(gens []Generator, opts model.Options) []loader.NodeFilter {
	if opts.Conversions || opts.Webhook || opts.DeepCopy {
		return nil
	}
	var out []loader.NodeFilter
	for _, g := range gens {
		f, ok := g.(checkFilterer)
		if !ok {
			return nil
		}
		out = append(out, f.CheckFilter())
	}
	return out
}

// buildModelChecking is buildModel with the checker's node filters given.
func buildModelChecking(cfg Config, opts model.Options, filters []loader.NodeFilter, gens []Generator) (*Result, *load.Result, []Generator, error) {
	regs, err := markers.NewRegistries()
	if err != nil {
		return nil, nil, nil, err
	}
	ld, err := load.Packages(cfg.Dir, cfg.Patterns)
	if err != nil {
		return nil, nil, nil, err
	}
	if len(ld.Roots) == 0 {
		return nil, nil, nil, fmt.Errorf("no Go packages match %s in %s", strings.Join(cfg.Patterns, " "), cfg.Dir)
	}
	// The deploy generator writes its Service there: a file of the
	// project's own in its place is the Service the CRDs must name.
	ld.ProjectService = load.ReadProjectService(output.Abs(cfg.Dir, filepath.Join(cfg.DeployDir, "service.yaml")))
	// A kind whose committed CRD converts through a webhook must not
	// fall back to strategy None without an error.
	ld.Committed = load.ReadCommittedCRDs(cfg.Dir, cfg.CRDDir)
	diags := diag.New(ld.Fset)
	res := &Result{Diags: diags}
	for _, w := range cfg.warnings {
		diags.Add(w)
	}

	ld.Checker.NodeFilters = filters
	if filters != nil {
		ld.CheckAPIs() // what controller-gen's crd generator checks
	} else {
		ld.Check()
	}
	ld.Errors(diags, nil, nil)
	if diags.HasErrors() {
		// Ill-typed packages would only yield follow-on errors. Still report
		// crdforge's marker errors, which need no types.
		for _, root := range ld.Roots {
			regs.Collect(root, diags)
		}
		return res, ld, nil, nil
	}
	workers := runtime.GOMAXPROCS(0) - 1
	if cfg.early != nil {
		workers = *cfg.early
	} else if workers < 1 {
		workers = -1 // one core: the model's goroutine would only take turns with the generator
	}
	run, each := start(gens, workers)
	res.Model, res.needsCompleteTypes = resolve(cfg.Dir, ld, regs, opts, diags, each)
	return res, ld, run, nil
}

// resolve builds the model of the load, handing each kind to each as it is
// built (model.Builder.Kinds), then plans the conversions the options ask
// for, then finishes what depends on them. The builder and the planner are
// dropped here, and the load's syntax of the packages the roots import: the
// model holds only what generators read. It reports
// whether the planning looked into a type a partial load left incomplete.
func resolve(dir string, ld *load.Result, regs *markers.Registries, opts model.Options, diags *diag.List, each func(*model.Model, *model.Kind)) (*model.Model, bool) {
	b := model.NewBuilder(dir, ld, regs, opts, diags)
	m := b.Kinds(each)
	incomplete := false
	if opts.Conversions || opts.Strategies || opts.Webhook {
		incomplete = plan.Conversions(m, b, opts, diags)
	}
	m = b.Finish()
	ld.DropImports()
	return m, incomplete
}

// start starts, with workers goroutines of their own (none: the model's
// goroutine works for them), the generators of gens that can start on each
// kind as the model builds it (the CRD generator: crd.Started). It returns
// gens with those in their place, and the model's hook that hands them each
// kind. With workers negative, nothing starts early.
func start(gens []Generator, workers int) ([]Generator, func(*model.Model, *model.Kind)) {
	if workers < 0 {
		return gens, nil
	}
	run := slices.Clone(gens)
	var started []*crd.Started
	for i, g := range run {
		if g, ok := g.(crd.Generator); ok {
			s := g.Start(workers)
			run[i] = s
			started = append(started, s)
		}
	}
	if started == nil {
		return gens, nil
	}
	return run, func(m *model.Model, k *model.Kind) {
		for _, s := range started {
			s.Kind(m, k)
		}
	}
}

// stop stops the started generators of gens, whose model is dropped.
func stop(gens []Generator) {
	for _, g := range gens {
		if s, ok := g.(*crd.Started); ok {
			s.Stop()
		}
	}
}

// finish adds what the load and controller-tools recorded while the model
// and the generators ran, and applies --strict and --allow-dropped-zeros.
func finish(cfg Config, ld *load.Result, res *Result) {
	ld.Errors(res.Diags, res.Model.Supersedes, res.Model.Reword)
	if cfg.Strict {
		res.Diags.Promote(diag.ClassNoCounterpart)
	}
	if cfg.AllowDroppedZeros {
		res.Diags.Demote(diag.ClassDroppedZero)
	}
}

// stale lists the files the selected generators own and no longer produce,
// for deletion; output.Plan deletes only those that carry crdforge's header.
func stale(dir string, m *model.Model, gens []Generator, produced []output.File) []output.File {
	made := map[string]bool{}
	for _, f := range produced {
		made[output.Abs(dir, f.Path)] = true
	}
	var out []output.File
	seen := map[string]bool{}
	for _, g := range gens {
		for _, pattern := range g.Owns(m) {
			matches, _ := filepath.Glob(output.Abs(dir, pattern))
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
