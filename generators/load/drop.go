package load

import "sigs.k8s.io/controller-tools/pkg/loader"

// DropImports lets go of what the load holds of the packages the roots
// import, once the model is built: their syntax trees and the type
// checker's records of them (types.Info), which controller-tools' schema
// parser read while the model was built. Generators read the roots' syntax
// and records (deepcopy) and the go/types objects of every package, which
// stay. At 600 kinds that is some 40 MB of a run's peak RSS (issue 56).
func (r *Result) DropImports() {
	roots := make(map[*loader.Package]bool, len(r.Roots))
	for _, root := range r.Roots {
		roots[root] = true
	}
	seen := map[*loader.Package]bool{}
	var drop func(p *loader.Package)
	drop = func(p *loader.Package) {
		if seen[p] {
			return
		}
		seen[p] = true
		for _, imported := range p.Imports() {
			drop(imported)
		}
		if !roots[p] {
			p.Syntax, p.TypesInfo = nil, nil
		}
	}
	for _, root := range r.Roots {
		drop(root)
	}
}
