package model

import (
	"go/ast"
	"go/token"
	"go/types"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"

	"github.com/crdforge/crdforge/internal/diag"
	"github.com/crdforge/crdforge/internal/load"
	"github.com/crdforge/crdforge/internal/markers"
	"github.com/crdforge/crdforge/internal/parallel"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/version"
	"sigs.k8s.io/controller-tools/pkg/crd"
	"sigs.k8s.io/controller-tools/pkg/loader"
	ctmarkers "sigs.k8s.io/controller-tools/pkg/markers"
)

// Options says which optional parts of the model to resolve: those the
// selected generators read. A part left out reports no diagnostics either.
type Options struct {
	// Conversions resolves the type pairs of every spoke.
	Conversions bool
	// Strategies settles each kind's conversion strategy, which a kind
	// whose conversion needs functions nobody has written yet keeps at
	// None (settleEntryPoints): the pairs, without the checks and losses
	// only generated conversions need. Conversions implies it.
	Strategies bool
	// Webhook resolves the module's conversion webhook, Model.Webhook.
	Webhook bool
	// DeepCopy resolves the types whose deepcopy methods crdforge writes
	// itself, Model.OwnCopies.
	DeepCopy bool
	// PartialTypes says the load checked only what schemas reach, as
	// controller-gen does for CRDs: a type outside the API packages may
	// hold a field of a type never checked. The pairing, which looks into
	// such types only now and then, asks for a complete load when it does
	// (Model.NeedsCompleteTypes).
	PartialTypes bool
	// Schema configures controller-tools' schema parser.
	Schema SchemaOptions
}

// SchemaOptions are controller-gen's crd generator options that shape
// schemas, with its meaning: crd.Generator.Generate hands the same values to
// the crd.Parser and to NeedCRDFor.
type SchemaOptions struct {
	// AllowDangerousTypes admits float32 and float64 fields.
	AllowDangerousTypes bool
	// IgnoreUnexportedFields leaves unexported fields out.
	IgnoreUnexportedFields bool
	// MaxDescLen, when set, truncates descriptions (crd.TruncateDescription):
	// 0 drops them, a negative value keeps them.
	MaxDescLen *int
	// GenerateEmbeddedObjectMeta gives embedded ObjectMetas their schema.
	GenerateEmbeddedObjectMeta bool
}

// With is o and p together: every part either asks for, and o's Schema.
func (o Options) With(p Options) Options {
	return Options{Conversions: o.Conversions || p.Conversions, Strategies: o.Strategies || p.Strategies, Webhook: o.Webhook || p.Webhook,
		DeepCopy: o.DeepCopy || p.DeepCopy, PartialTypes: o.PartialTypes || p.PartialTypes, Schema: o.Schema}
}

// Build resolves the model from the load. Problems go to diags, each at the
// comment or declaration that caused it; the model is returned even then, so
// that later stages can report their own problems in the same run.
func Build(dir string, ld *load.Result, regs *markers.Registries, opts Options, diags *diag.List) *Model {
	return BuildEach(dir, ld, regs, opts, diags, nil)
}

// BuildEach is Build, handing each kind to each (when not nil) as soon as
// buildKind is done with it, while the model goes on with the next kind:
// its versions, their order, schemas and storage are final, and so is its
// conversion, but for the strategy, which the last steps may still turn
// from Webhook to None (leaveUndeclaredToConversionGen, for a kind whose
// packages' conversions are conversion-gen's; settleEntryPoints, for a kind
// whose conversion needs functions nobody has written). each runs in the model's goroutine, so it
// should only hand the kind over; what it starts may read what buildKind
// set, never what the model sets later.
func BuildEach(dir string, ld *load.Result, regs *markers.Registries, opts Options, diags *diag.List, each func(*Model, *Kind)) *Model {
	m := newModel(dir, ld, regs, opts)
	m.collectMarkers(regs, diags)
	if opts.DeepCopy {
		for _, root := range m.Roots {
			m.OwnCopies[root] = m.ownCopies(root, diags)
			m.Uncopyable[root] = m.uncopyable(root)
		}
	}
	m.parseSchemas()
	m.checkProjectDir(diags)
	metav1 := crd.FindMetav1(m.Roots)
	if metav1 == nil {
		return m // nothing imports metav1: there are no kinds
	}
	m.buildGroups(metav1, diags, each)
	m.leaveUndeclaredToConversionGen(diags)
	if opts.Conversions || opts.Strategies || opts.Webhook {
		m.resolveConversions(diags)
	}
	if opts.Webhook {
		m.Webhook = m.ResolveWebhook(diags)
	}
	if !opts.Conversions && !opts.Webhook && !opts.DeepCopy {
		// What the parser and the collector hold is over a third of what
		// a large CRD-only run would keep to its end (about 100 of 258 MB
		// at 400 kinds), which the garbage collector would mark on each
		// cycle while the CRDs left are validated.
		m.Schemas, m.Collector = nil, nil
	}
	return m
}

// newModel is a model of the load's roots with nothing built yet.
func newModel(dir string, ld *load.Result, regs *markers.Registries, opts Options) *Model {
	m := &Model{
		opts:            opts,
		incomplete:      new(atomic.Bool),
		Dir:             dir,
		ImportPath:      importPathOf(dir, ld.Roots),
		Fset:            ld.Fset,
		Roots:           ld.Roots,
		Markers:         map[*loader.Package]*markers.Set{},
		Collector:       &ctmarkers.Collector{Registry: regs.Kubebuilder},
		Checker:         ld.Checker,
		TestFuncs:       testFuncs(ld),
		load:            ld,
		superseded:      map[errorRef]bool{},
		deepCopied:      map[*loader.Package]map[string]bool{},
		deepCopyObjects: map[*loader.Package]map[string]bool{},
		OwnCopies:       map[*loader.Package][]*OwnCopy{},
		Uncopyable:      map[*loader.Package][]string{},
	}
	m.Project = projectName(m.ImportPath)
	if kb := ld.Kubebuilder; kb != nil {
		m.Kubebuilder = kb
		m.Project = dnsLabel(kb.Name)
	} else {
		m.ProjectService = ld.ProjectService // kubebuilder's is the manager's, which it names alike
	}
	return m
}

// parseSchemas sets up controller-tools' schema parser over the checked
// roots.
func (m *Model) parseSchemas() {
	m.Schemas = &crd.Parser{
		Collector:                  m.Collector,
		Checker:                    m.Checker,
		AllowDangerousTypes:        m.opts.Schema.AllowDangerousTypes,
		IgnoreUnexportedFields:     m.opts.Schema.IgnoreUnexportedFields,
		GenerateEmbeddedObjectMeta: m.opts.Schema.GenerateEmbeddedObjectMeta,
	}
	crd.AddKnownTypes(m.Schemas) // after GenerateEmbeddedObjectMeta: it reads it
	for _, root := range m.Roots {
		if !m.load.Unchecked[root] { // no +groupName there: no kind, no type a kind holds
			m.Schemas.NeedPackage(root)
		}
	}
}

// buildGroups builds every kind of the roots, handing each to each as it
// is built, and sorts groups and kinds by name.
func (m *Model) buildGroups(metav1 *loader.Package, diags *diag.List, each func(*Model, *Kind)) {
	groups := map[string]*Group{}
	emptyGroup := map[*loader.Package]bool{}
	for _, gk := range crd.FindKubeKinds(m.Schemas, metav1) {
		if gk.Group == "" {
			// Either not in an API package (no +groupName: not a CRD's
			// kind, as for controller-gen), or +groupName= is empty.
			m.reportEmptyGroup(gk.Kind, emptyGroup, diags)
			continue
		}
		k := m.buildKind(gk.Group, gk.Kind, diags)
		if k == nil {
			continue
		}
		if each != nil {
			each(m, k)
		}
		g := groups[gk.Group]
		if g == nil {
			g = &Group{Name: gk.Group}
			groups[gk.Group] = g
			m.Groups = append(m.Groups, g)
		}
		g.Kinds = append(g.Kinds, k)
	}
	slices.SortFunc(m.Groups, func(a, b *Group) int { return strings.Compare(a.Name, b.Name) })
	for _, g := range m.Groups {
		slices.SortFunc(g.Kinds, func(a, b *Kind) int { return strings.Compare(a.Name, b.Name) })
	}
}

// collectMarkers reads every root's markers: crdforge's own, and, through
// controller-tools' collector, the kubebuilder markers that its schema
// parser and the deepcopy markers read. Roots are read side by side (the
// collector is safe for concurrent use, and caches each package's
// markers), while nothing else runs yet: the schema parser that comes next
// works on one core, and reads the markers it needs from the cache.
func (m *Model) collectMarkers(regs *markers.Registries, diags *diag.List) {
	// Which types get deepcopy methods: conversions copy through them
	// (whether a field converts at all depends on it, which settles the
	// strategies), and the types crdforge copies itself are among them.
	deepCopy := m.opts.DeepCopy || m.opts.Conversions || m.opts.Strategies || m.opts.Webhook
	sets := make([]*markers.Set, len(m.Roots))
	found := make([]*diag.List, len(m.Roots))
	enabled := make([]map[string]bool, len(m.Roots))
	objects := make([]map[string]bool, len(m.Roots))
	parallel.For(len(m.Roots), func(i int) {
		root := m.Roots[i]
		found[i] = diag.New(m.Fset)
		sets[i] = regs.Collect(root, found[i])
		if deepCopy {
			enabled[i], objects[i] = deepCopyMarkers(m.Collector, root)
		} else {
			_, _ = m.Collector.MarkersInPackage(root) // its errors are the schema parser's to report
		}
	})
	for i, root := range m.Roots {
		m.Markers[root] = sets[i]
		diags.Append(found[i])
		if deepCopy {
			m.deepCopied[root], m.deepCopyObjects[root] = enabled[i], objects[i]
		}
	}
}

// reportEmptyGroup reports, once per package, a kind declared in a package
// whose +groupName= is empty. controller-gen would write a CRD with group
// "", which the API server refuses (a CRD's spec.group must be a non-empty
// DNS subdomain, and its name <plural>.<group>); crdforge says so at the
// marker instead of dropping the kind without a word.
func (m *Model) reportEmptyGroup(kind string, reported map[*loader.Package]bool, diags *diag.List) {
	for _, root := range m.Roots {
		gv, ok := m.Schemas.GroupVersions[root]
		if !ok || gv.Group != "" || reported[root] || m.Schemas.Types[crd.TypeIdent{Package: root, Name: kind}] == nil {
			continue
		}
		set := m.Markers[root]
		if set == nil {
			continue
		}
		for _, file := range root.Syntax {
			if pos := set.Find(file, "groupName"); pos.IsValid() {
				reported[root] = true
				diags.Errorf(pos, "+groupName is empty, so %s (and every kind of package %s) has no API group: "+
					"the API server refuses a CRD without one (spec.group must be a DNS subdomain such as example.com)",
					kind, root.Name)
				break
			}
		}
	}
}

// testFuncs lists the top-level functions of each root's test files.
func testFuncs(ld *load.Result) map[*loader.Package]map[string]bool {
	out := map[*loader.Package]map[string]bool{}
	for root, files := range ld.TestFiles {
		for _, file := range files {
			for _, d := range file.Decls {
				if fn, ok := d.(*ast.FuncDecl); ok && fn.Recv == nil {
					if out[root] == nil {
						out[root] = map[string]bool{}
					}
					out[root][fn.Name.Name] = true
				}
			}
		}
	}
	return out
}

func (m *Model) buildKind(group, kind string, diags *diag.List) *Kind {
	p := m.Schemas
	gk := schema.GroupKind{Group: group, Kind: kind}
	checks := m.needCRD(gk)
	c, ok := p.CustomResourceDefinitions[gk]
	if !ok || len(c.Spec.Versions) == 0 {
		return nil
	}
	crd.FixTopLevelMetadata(c)
	k := &Kind{Group: group, Name: kind, CRD: &c, SchemaErrors: schemaErrors(p, group)}

	for _, cv := range c.Spec.Versions {
		pkg := m.packageFor(group, cv.Name, kind)
		if pkg == nil {
			continue
		}
		info := p.Types[crd.TypeIdent{Package: pkg, Name: kind}]
		named, _ := pkg.Types.Scope().Lookup(kind).Type().(*types.Named)
		k.Versions = append(k.Versions, &Version{
			Kind:               k,
			Name:               cv.Name,
			Package:            pkg,
			Spec:               info.RawSpec,
			Type:               named,
			Served:             cv.Served,
			Storage:            cv.Storage,
			Deprecated:         cv.Deprecated,
			DeprecationWarning: cv.DeprecationWarning,
		})
	}
	if len(k.Versions) == 0 {
		return nil
	}
	slices.SortStableFunc(k.Versions, func(a, b *Version) int {
		return version.CompareKubeAwareVersionStrings(b.Name, a.Name)
	})

	if reported := m.resolveStorage(k, diags); reported > 0 && reported == len(checks) {
		for _, e := range checks {
			m.superseded[e] = true
		}
	}
	m.resolveHub(k, diags)
	m.resolveConversion(k, diags)
	m.resolveInternalHub(k, diags)
	return k
}

// packageFor finds the root package of group/version that declares kind.
func (m *Model) packageFor(group, ver, kind string) *loader.Package {
	for _, root := range m.Roots {
		gv, ok := m.Schemas.GroupVersions[root]
		if !ok || gv.Group != group || gv.Version != ver {
			continue
		}
		if _, ok := m.Schemas.Types[crd.TypeIdent{Package: root, Name: kind}]; ok {
			return root
		}
	}
	return nil
}

// needCRD has controller-tools build the kind's CRD, and returns the errors
// that its two last checks (a storage version, a served version) recorded:
// the model makes the same checks itself and reports them at the markers
// involved, where controller-tools has no position and names a package.
//
// Those errors are known by where they come from, not by their text: every
// schema the CRD needs is flattened first, as NeedCRDFor would, so that the
// only errors NeedCRDFor itself adds are the kubebuilder markers' (at the
// type, positioned) and, last, those two checks (position-free).
func (m *Model) needCRD(gk schema.GroupKind) []errorRef {
	p := m.Schemas
	// The packages NeedCRDFor looks at: every package of the group.
	var group []*loader.Package
	for pkg, gv := range p.GroupVersions {
		if gv.Group == gk.Group {
			group = append(group, pkg)
		}
	}
	for _, pkg := range group {
		if ident := (crd.TypeIdent{Package: pkg, Name: gk.Kind}); p.Types[ident] != nil {
			p.NeedFlattenedSchemaFor(ident)
		}
	}
	before := make(map[*loader.Package]int, len(group))
	for _, pkg := range group {
		before[pkg] = len(pkg.Errors)
	}
	p.NeedCRDFor(gk, m.opts.Schema.MaxDescLen)
	// NeedCRDFor made its own copy of each root's flattened schema (it
	// truncates descriptions in place); the cached one is read by nothing
	// else, and keeping it for every kind is a third of what a large run
	// holds at its end: the garbage collector marks it again on each cycle.
	for _, pkg := range group {
		delete(p.FlattenedSchemata, crd.TypeIdent{Package: pkg, Name: gk.Kind})
	}
	var added []errorRef
	for _, pkg := range group {
		for i := before[pkg]; i < len(pkg.Errors); i++ {
			if load.PositionFree(pkg.Package, pkg.Errors[i]) {
				added = append(added, errorRef{pkg.Package, i})
			}
		}
	}
	return added
}

// schemaErrors reports whether controller-tools recorded a positioned error
// in a package of the kind's group: a schema or marker error (a float
// without --allow-dangerous-types, a field without a JSON tag). The load had
// no errors, or the model would not be built, so every error there now is
// controller-tools'; the position-free ones are the two checks the model
// makes itself.
func schemaErrors(p *crd.Parser, group string) bool {
	for pkg, gv := range p.GroupVersions {
		if gv.Group != group {
			continue
		}
		for _, e := range pkg.Errors {
			if !load.PositionFree(pkg.Package, e) {
				return true
			}
		}
	}
	return false
}

// resolveStorage finds the storage version, and returns how many of the
// checks controller-tools also makes it reported: no storage version, no
// served version.
func (m *Model) resolveStorage(k *Kind, diags *diag.List) (reported int) {
	var storage, served []*Version
	for _, v := range k.Versions {
		if v.Storage {
			storage = append(storage, v)
		}
		if v.Served {
			served = append(served, v)
		}
	}
	switch len(storage) {
	case 0:
		reported++
		diags.Errorf(k.Pos(), "%s has no storage version among %s: mark exactly one version's %s type with +kubebuilder:storageversion",
			k.qualified(), names(k.Versions), k.Name)
	case 1:
		k.Storage = storage[0]
	default:
		for _, v := range storage {
			diags.Errorf(m.markerPos(v, "kubebuilder:storageversion"), "%s has %d storage versions (%s): exactly one version may carry +kubebuilder:storageversion",
				k.qualified(), len(storage), names(storage))
		}
	}
	if len(served) == 0 {
		reported++
		for _, v := range k.Versions {
			diags.Errorf(m.markerPos(v, "kubebuilder:unservedversion"), "%s serves no version: remove +kubebuilder:unservedversion from at least one of %s",
				k.qualified(), names(k.Versions))
		}
	}
	return reported
}

func (m *Model) resolveHub(k *Kind, diags *diag.List) {
	var hubs []*Version
	var pos []token.Pos
	for _, v := range k.Versions {
		if val, ok := m.versionMarker(v, markers.HubName, true); ok {
			hubs = append(hubs, v)
			pos = append(pos, val.Pos)
		}
	}
	switch len(hubs) {
	case 0:
		k.Hub = m.defaultHub(k)
	case 1:
		k.Hub = hubs[0]
		m.checkHubImports(k, pos[0], diags)
	default:
		for i := range hubs {
			diags.Errorf(pos[i], "%s has %d hub versions (%s): exactly one version may carry +%s; without it the storage version is the hub",
				k.qualified(), len(hubs), names(hubs), markers.HubName)
		}
	}
}

// versionMarker finds a +crdforge: marker on the version's root type, or,
// when orPackage is set, on its package.
func (m *Model) versionMarker(v *Version, name string, orPackage bool) (markers.Value, bool) {
	set := m.Markers[v.Package]
	if set == nil {
		return markers.Value{}, false
	}
	for _, val := range set.Types[v.Spec] {
		if val.Name == name {
			return val, true
		}
	}
	if orPackage {
		for _, val := range set.Package {
			if val.Name == name {
				return val, true
			}
		}
	}
	return markers.Value{}, false
}

// markerPos is the position of a marker on the version's root type, or of the
// type itself when the marker is absent.
func (m *Model) markerPos(v *Version, name string) token.Pos {
	if set := m.Markers[v.Package]; set != nil {
		if pos := set.Find(v.Spec, name); pos.IsValid() {
			return pos
		}
	}
	return v.Pos()
}

func (k *Kind) qualified() string { return k.Name + "." + k.Group }

func names(vs []*Version) string {
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = v.Name
	}
	return strings.Join(out, ", ")
}

// projectName derives the DNS label that default names start with: the last
// element of dir's import path, or of dir itself outside a module.
func projectName(importPath string) string {
	return dnsLabel(path.Base(importPath))
}

// importPathOf is the import path of dir, from the module of the roots; dir
// itself when no root's module contains it.
func importPathOf(dir string, roots []*loader.Package) string {
	for _, r := range roots {
		if r.Module == nil || r.Module.Dir == "" {
			continue
		}
		rel, err := filepath.Rel(r.Module.Dir, dir)
		if err != nil || strings.HasPrefix(rel, "..") {
			continue
		}
		return path.Join(r.Module.Path, filepath.ToSlash(rel))
	}
	return filepath.ToSlash(dir)
}

func dnsLabel(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9':
			b.WriteRune(r)
		default:
			b.WriteByte('-')
		}
	}
	out := strings.Trim(b.String(), "-")
	if out == "" || out[0] < 'a' {
		out = "crdforge-" + out
	}
	return strings.TrimSuffix(out, "-")
}
