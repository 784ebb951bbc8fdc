package model

import (
	"go/token"
	"strings"

	"sigs.k8s.io/controller-tools/pkg/loader"

	"github.com/crdforge/crdforge/internal/diag"
)

// Every spoke's generated conversion imports the hub's package, so the
// hub's package must not import a spoke's, directly or not: Gateway API's
// v1beta1 declares its types as aliases of v1's, so v1beta1 imports v1 and
// only v1 can be the hub of a kind the two share.

// defaultHub is the hub of a kind without +crdforge:hub: the one version
// whose root type declares a Hub method (controller-runtime's mark of the
// hub, which a kubebuilder project writes by hand), or else the storage
// version; but when that version's package imports another version's, the
// highest-priority version whose package imports none of the others'.
func (b *Builder) defaultHub(k *Kind) *Version {
	var declared []*Version
	for _, v := range k.Versions {
		if v.Type != nil && DeclaredMethod(v.Type, "Hub") != nil {
			declared = append(declared, v)
		}
	}
	hub := k.Storage
	if len(declared) == 1 {
		hub = declared[0]
	}
	if hub == nil || len(b.importedVersions(hub, k)) == 0 {
		return hub
	}
	for _, v := range k.Versions {
		if len(b.importedVersions(v, k)) == 0 {
			return v
		}
	}
	return hub // unreachable: Go imports have no cycles, so some version imports none of the others
}

// checkHubImports reports a hub picked with +crdforge:hub whose package
// imports another version's.
func (b *Builder) checkHubImports(k *Kind, pos token.Pos, diags *diag.List) {
	imported := b.importedVersions(k.Hub, k)
	if len(imported) == 0 {
		return
	}
	diags.Errorf(pos, "%s cannot be the hub of %s: package %s imports the package of %s", k.Hub.Name, k.qualified(), k.Hub.Package.Name, names(imported)).
		Note("every other version's conversion imports the hub's package, so that would be an import cycle").
		Help("pick a version whose package imports none of the others'")
}

// importedVersions lists the other versions of k whose packages v's package
// imports, directly or not.
func (b *Builder) importedVersions(v *Version, k *Kind) []*Version {
	reach := b.Imports(v.Package)
	var out []*Version
	for _, o := range k.Versions {
		if o != v && reach[o.Package.PkgPath] {
			out = append(out, o)
		}
	}
	return out
}

// imports is the set of import paths pkg imports, directly or not. Standard
// library packages, which import no API package, are not followed.
func imports(pkg *loader.Package) map[string]bool {
	seen := map[string]bool{}
	var walk func(p *loader.Package)
	walk = func(p *loader.Package) {
		for _, imp := range p.Imports() {
			if seen[imp.PkgPath] {
				continue
			}
			seen[imp.PkgPath] = true
			if strings.Contains(strings.SplitN(imp.PkgPath, "/", 2)[0], ".") {
				walk(imp)
			}
		}
	}
	walk(pkg)
	return seen
}

// Imports is imports(pkg), computed once per package: every kind of a
// version package asks it (its hub), and every spoke of every root (peers).
func (b *Builder) Imports(pkg *loader.Package) map[string]bool {
	if set, ok := b.importSets[pkg]; ok {
		return set
	}
	if b.importSets == nil {
		b.importSets = map[*loader.Package]map[string]bool{}
	}
	set := imports(pkg)
	b.importSets[pkg] = set
	return set
}
