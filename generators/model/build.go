package model

import (
	"go/ast"
	"go/token"
	"go/types"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/version"
	"sigs.k8s.io/controller-tools/pkg/crd"
	"sigs.k8s.io/controller-tools/pkg/loader"

	"github.com/crdforge/crdforge/generators/load"
	"github.com/crdforge/crdforge/internal/diag"
	"github.com/crdforge/crdforge/internal/parallel"
	"github.com/crdforge/crdforge/markers"
)

// parseSchemas sets up controller-tools' schema parser over the checked
// roots.
func (b *Builder) parseSchemas() {
	b.Schemas = &crd.Parser{
		Collector:                  b.Collector,
		Checker:                    b.Checker,
		AllowDangerousTypes:        b.opts.Schema.AllowDangerousTypes,
		IgnoreUnexportedFields:     b.opts.Schema.IgnoreUnexportedFields,
		GenerateEmbeddedObjectMeta: b.opts.Schema.GenerateEmbeddedObjectMeta,
	}
	crd.AddKnownTypes(b.Schemas) // after GenerateEmbeddedObjectMeta: it reads it
	for _, root := range b.Roots {
		if !b.load.Unchecked[root] { // no +groupName there: no kind, no type a kind holds
			b.Schemas.NeedPackage(root)
		}
	}
}

// buildGroups builds every kind of the roots, handing each to each as it
// is built, and sorts groups and kinds by name.
func (b *Builder) buildGroups(metav1 *loader.Package, diags *diag.List, each func(*Model, *Kind)) {
	groups := map[string]*Group{}
	emptyGroup := map[*loader.Package]bool{}
	for _, gk := range crd.FindKubeKinds(b.Schemas, metav1) {
		if gk.Group == "" {
			// Either not in an API package (no +groupName: not a CRD's
			// kind, as for controller-gen), or +groupName= is empty.
			b.reportEmptyGroup(gk.Kind, emptyGroup, diags)
			continue
		}
		k := b.buildKind(gk.Group, gk.Kind, diags)
		if k == nil {
			continue
		}
		if each != nil {
			each(b.Model, k)
		}
		g := groups[gk.Group]
		if g == nil {
			g = &Group{Name: gk.Group}
			groups[gk.Group] = g
			b.Groups = append(b.Groups, g)
		}
		g.Kinds = append(g.Kinds, k)
	}
	slices.SortFunc(b.Groups, func(a, b *Group) int { return strings.Compare(a.Name, b.Name) })
	for _, g := range b.Groups {
		slices.SortFunc(g.Kinds, func(a, b *Kind) int { return strings.Compare(a.Name, b.Name) })
	}
}

// collectMarkers reads every root's markers: crdforge's own, and, through
// controller-tools' collector, the kubebuilder markers that its schema
// parser and the deepcopy markers read. Roots are read side by side (the
// collector is safe for concurrent use, and caches each package's
// markers), while nothing else runs yet: the schema parser that comes next
// works on one core, and reads the markers it needs from the cache.
func (b *Builder) collectMarkers(regs *markers.Registries, diags *diag.List) {
	// Which types get deepcopy methods: conversions copy through them
	// (whether a field converts at all depends on it, which settles the
	// strategies), and the types crdforge copies itself are among them.
	deepCopy := b.opts.DeepCopy || b.opts.Conversions || b.opts.Strategies || b.opts.Webhook
	sets := make([]*markers.Set, len(b.Roots))
	found := make([]*diag.List, len(b.Roots))
	enabled := make([]map[string]bool, len(b.Roots))
	objects := make([]map[string]bool, len(b.Roots))
	parallel.For(len(b.Roots), func(i int) {
		root := b.Roots[i]
		found[i] = diag.New(b.Fset)
		sets[i] = regs.Collect(root, found[i])
		if deepCopy {
			enabled[i], objects[i] = deepCopyMarkers(b.Collector, root)
		} else {
			_, _ = b.Collector.MarkersInPackage(root) // its errors are the schema parser's to report
		}
	})
	for i, root := range b.Roots {
		b.Markers[root] = sets[i]
		diags.Append(found[i])
		if deepCopy {
			b.deepCopied[root], b.deepCopyObjects[root] = enabled[i], objects[i]
		}
	}
}

// reportEmptyGroup reports, once per package, a kind declared in a package
// whose +groupName= is empty. controller-gen would write a CRD with group
// "", which the API server refuses (a CRD's spec.group must be a non-empty
// DNS subdomain, and its name <plural>.<group>); crdforge says so at the
// marker instead of dropping the kind without a word.
func (b *Builder) reportEmptyGroup(kind string, reported map[*loader.Package]bool, diags *diag.List) {
	for _, root := range b.Roots {
		gv, ok := b.Schemas.GroupVersions[root]
		if !ok || gv.Group != "" || reported[root] || b.Schemas.Types[crd.TypeIdent{Package: root, Name: kind}] == nil {
			continue
		}
		set := b.Markers[root]
		if set == nil {
			continue
		}
		for _, file := range root.Syntax {
			if pos := set.Find(file, "groupName"); pos.IsValid() {
				reported[root] = true
				diags.Errorf(pos, "+groupName is empty, so %s (and every kind of package %s) has no API group", kind, root.Name).
					Note("the API server refuses a CRD without one").
					Help("name the group: spec.group must be a DNS subdomain such as example.com")
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

func (b *Builder) buildKind(group, kind string, diags *diag.List) *Kind {
	p := b.Schemas
	gk := schema.GroupKind{Group: group, Kind: kind}
	checks := b.needCRD(gk)
	c, ok := p.CustomResourceDefinitions[gk]
	if !ok || len(c.Spec.Versions) == 0 {
		return nil
	}
	crd.FixTopLevelMetadata(c)
	k := &Kind{Group: group, Name: kind, CRD: &c, SchemaErrors: schemaErrors(p, group)}

	for _, cv := range c.Spec.Versions {
		pkg := b.packageFor(group, cv.Name, kind)
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

	if reported := b.resolveStorage(k, diags); reported > 0 && reported == len(checks) {
		for _, e := range checks {
			b.superseded[e] = true
		}
	}
	b.resolveHub(k, diags)
	b.resolveConversion(k, diags)
	b.resolveInternalHub(k, diags)
	b.resolveDeprecatedFields(k, diags)
	return k
}

// packageFor finds the root package of group/version that declares kind.
func (b *Builder) packageFor(group, ver, kind string) *loader.Package {
	for _, root := range b.Roots {
		gv, ok := b.Schemas.GroupVersions[root]
		if !ok || gv.Group != group || gv.Version != ver {
			continue
		}
		if _, ok := b.Schemas.Types[crd.TypeIdent{Package: root, Name: kind}]; ok {
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
func (b *Builder) needCRD(gk schema.GroupKind) []errorRef {
	p := b.Schemas
	// The packages NeedCRDFor looks at: every package of the group.
	var group []*loader.Package
	for pkg, gv := range p.GroupVersions {
		if gv.Group == gk.Group {
			group = append(group, pkg)
		}
	}
	flattenRoots(p, gk.Kind, group)
	before := make(map[*loader.Package]int, len(group))
	for _, pkg := range group {
		before[pkg] = len(pkg.Errors)
	}
	p.NeedCRDFor(gk, b.opts.Schema.MaxDescLen)
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

// flattenRoots flattens the kind's root type in each package of group that
// declares it, into the parser's FlattenedSchemata, where NeedCRDFor finds
// it, as the parser's NeedFlattenedSchemaFor would, but with a flattener of
// the kind's own. The parser's flattener keeps every type it flattened for
// the rest of the run: each root, a whole copy of a CRD version's schema,
// and each type below it, most of one again. At 600 kinds that cache would
// be the largest part of the live heap while the plan runs, the run's peak
// (issue 56: about 100 of 560 MiB). The kind's flattener goes with the kind; a type several kinds share (core/v1's)
// is flattened once for each of them, which costs less than the garbage
// collector marking the cache on every cycle. Errors flattening records on a
// shared type repeat once per kind; diagnostics are reported without
// duplicates (diag.List.Items).
func flattenRoots(p *crd.Parser, kind string, group []*loader.Package) {
	f := &crd.Flattener{Parser: p}
	for _, pkg := range group {
		ident := crd.TypeIdent{Package: pkg, Name: kind}
		if p.Types[ident] == nil {
			continue
		}
		if _, done := p.FlattenedSchemata[ident]; done {
			continue
		}
		p.NeedSchemaFor(ident)
		if partial := f.FlattenType(ident); partial != nil {
			p.FlattenedSchemata[ident] = *crd.FlattenEmbedded(partial, pkg)
		}
	}
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
func (b *Builder) resolveStorage(k *Kind, diags *diag.List) (reported int) {
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
		diags.Errorf(k.Pos(), "%s has no storage version among %s", k.qualified(), names(k.Versions)).
			Help("mark exactly one version's %s type with +kubebuilder:storageversion", k.Name)
	case 1:
		k.Storage = storage[0]
	default:
		for _, v := range storage {
			diags.Errorf(b.markerPos(v, "kubebuilder:storageversion"), "%s has %d storage versions (%s)", k.qualified(), len(storage), names(storage)).
				Help("exactly one version may carry +kubebuilder:storageversion")
		}
	}
	if len(served) == 0 {
		reported++
		for _, v := range k.Versions {
			diags.Errorf(b.markerPos(v, "kubebuilder:unservedversion"), "%s serves no version", k.qualified()).
				Help("remove +kubebuilder:unservedversion from at least one of %s", names(k.Versions))
		}
	}
	return reported
}

func (b *Builder) resolveHub(k *Kind, diags *diag.List) {
	var hubs []*Version
	var pos []token.Pos
	for _, v := range k.Versions {
		if val, ok := b.versionMarker(v, markers.HubName, true); ok {
			hubs = append(hubs, v)
			pos = append(pos, val.Pos)
		}
	}
	switch len(hubs) {
	case 0:
		k.Hub = b.defaultHub(k)
	case 1:
		k.Hub = hubs[0]
		b.checkHubImports(k, pos[0], diags)
	default:
		for i := range hubs {
			diags.Errorf(pos[i], "%s has %d hub versions (%s)", k.qualified(), len(hubs), names(hubs)).
				Note("without +%s the storage version is the hub", markers.HubName).
				Help("exactly one version may carry +%s", markers.HubName)
		}
	}
}

// versionMarker finds a +crdforge: marker on the version's root type, or,
// when orPackage is set, on its package.
func (b *Builder) versionMarker(v *Version, name string, orPackage bool) (markers.Value, bool) {
	set := b.Markers[v.Package]
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
func (b *Builder) markerPos(v *Version, name string) token.Pos {
	if set := b.Markers[v.Package]; set != nil {
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
