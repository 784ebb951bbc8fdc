package model

import (
	"go/token"

	"sigs.k8s.io/controller-tools/pkg/crd"
	"sigs.k8s.io/controller-tools/pkg/loader"
	ctmarkers "sigs.k8s.io/controller-tools/pkg/markers"

	"github.com/crdforge/crdforge/generators/load"
	"github.com/crdforge/crdforge/internal/diag"
	"github.com/crdforge/crdforge/markers"
)

// Builder builds a Model from one load, and holds what only building needs:
// the options, the load itself, which types get deepcopy methods, and what
// each package imports. It is dropped once the model is built, so none of it
// reaches generators; the model keeps only what they read. Construction is
// apart from the types, as in protobuf-go's protogen.
//
// A run builds in three steps, the pipeline's to call: Kinds, then the
// conversion planning (generators/plan), which asks the builder what the
// model does not hold (HasDeepCopyInto, Imports), then Finish.
type Builder struct {
	*Model
	opts  Options
	diags *diag.List
	// load answers what the load left out: the declarations of ignored
	// generated files.
	load *load.Result
	// deepCopied lists, per root, the types crdforge's deepcopy generator
	// writes methods for; deepCopyObjects those that get DeepCopyObject.
	deepCopied      map[*loader.Package]map[string]bool
	deepCopyObjects map[*loader.Package]map[string]bool
	// importSets caches, per package, what imports returns for it
	// (Imports).
	importSets map[*loader.Package]map[string]bool
	// hasKinds says a root imports metav1, so that there may be kinds.
	hasKinds bool
	// deprecations are the +crdforge:deprecated markers, by field
	// (deprecatedfields.go).
	deprecations map[token.Pos]*deprecation
}

// NewBuilder starts a model of the load's roots, with nothing built yet.
// Problems go to diags, each at the comment or declaration that caused it.
func NewBuilder(dir string, ld *load.Result, regs *markers.Registries, opts Options, diags *diag.List) *Builder {
	m := &Model{
		Dir:         dir,
		ImportPath:  importPathOf(dir, ld.Roots),
		Fset:        ld.Fset,
		Roots:       ld.Roots,
		Markers:     map[*loader.Package]*markers.Set{},
		Collector:   &ctmarkers.Collector{Registry: regs.Kubebuilder},
		Checker:     ld.Checker,
		TestFuncs:   testFuncs(ld),
		OwnCopies:   map[*loader.Package][]*OwnCopy{},
		CopyRepairs: map[*loader.Package][]*CopyRepair{},
		Uncopyable:  map[*loader.Package][]string{},
		superseded:  map[errorRef]bool{},
	}
	m.Project = projectName(m.ImportPath)
	if kb := ld.Kubebuilder; kb != nil {
		m.Kubebuilder = kb
		m.Project = dnsLabel(kb.Name)
	} else {
		m.ProjectService = ld.ProjectService // kubebuilder's is the manager's, which it names alike
	}
	b := &Builder{Model: m, opts: opts, diags: diags, load: ld,
		deepCopied: map[*loader.Package]map[string]bool{}, deepCopyObjects: map[*loader.Package]map[string]bool{}}
	b.collectMarkers(regs, diags)
	b.indexDeprecations(diags)
	return b
}

// Kinds builds the model's groups, kinds and versions. It hands each kind to
// each (when not nil) as soon as buildKind is done with it, while the model
// goes on with the next kind. At that point the kind's versions, their
// order, schemas and storage are final, and so is its conversion, but for
// the strategy. The last steps may still turn that from Webhook to None:
// leaveUndeclaredToConversionGen, for a kind whose packages' conversions
// are conversion-gen's, and the planning's strategy fallback, for a kind
// whose conversion needs functions nobody has written. each runs in the
// model's goroutine, so it should only hand the kind over; what it starts
// may read what buildKind set, never what is set later.
func (b *Builder) Kinds(each func(*Model, *Kind)) *Model {
	if b.opts.DeepCopy {
		for _, root := range b.Roots {
			b.OwnCopies[root] = b.ownCopies(root, b.diags)
			b.CopyRepairs[root] = b.copyRepairs(root, b.OwnCopies[root], b.diags)
			b.Uncopyable[root] = b.uncopyable(root)
		}
	}
	b.parseSchemas()
	b.checkProjectDir(b.diags)
	metav1 := crd.FindMetav1(b.Roots)
	if metav1 == nil {
		return b.Model // nothing imports metav1: there are no kinds
	}
	b.hasKinds = true
	b.buildGroups(metav1, b.diags, each)
	b.reportUnreachedDeprecations(b.diags)
	b.leaveUndeclaredToConversionGen(b.diags)
	return b.Model
}

// Finish resolves what depends on the settled strategies (the webhook, the
// fields whose explicit zero conversion turns into their default),
// drops what no generator of the run reads, and returns the model.
func (b *Builder) Finish() *Model {
	if !b.hasKinds {
		return b.Model
	}
	if b.opts.Webhook {
		b.Webhook = b.ResolveWebhook(b.diags)
	}
	if b.opts.Conversions || b.opts.Strategies || b.opts.Webhook {
		// Whether a dropped zero is an error depends on the strategy.
		b.reportDroppedZeros(b.diags)
	}
	// The parser holds every type's schema, flattened and not: each kind
	// has its CRD, and the plan, the last to read the parser, is done. Kept,
	// its schemas are over a third of what a large CRD-only run holds to its
	// end (about 100 of 258 MB at 400 kinds) and a sixth of a full run's
	// live heap after planning (issue 56), marked again by the garbage
	// collector on each cycle while the generators run.
	b.Schemas = nil
	if !b.opts.Conversions && !b.opts.Webhook && !b.opts.DeepCopy && !b.opts.PackageMarkers {
		b.Collector = nil // every package's markers, which only deepcopy reads again
	}
	return b.Model
}
