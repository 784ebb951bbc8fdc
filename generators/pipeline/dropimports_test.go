package pipeline

import (
	"testing"

	"sigs.k8s.io/controller-tools/pkg/loader"
)

// TestGenerateLetsGoOfTheImportsSyntax: once the model is built, a run
// holds no syntax tree or type-checker record of the packages the roots
// import (issue 56: some 40 MB of a 600-kind run's peak), and keeps the
// roots', which the deepcopy generator reads; the imports stay checked.
func TestGenerateLetsGoOfTheImportsSyntax(t *testing.T) {
	dir := oneKindTree(t, "_dropimports")
	res := generateWithoutErrors(t, dir, nil)
	roots := map[*loader.Package]bool{}
	for _, root := range res.Model.Roots {
		roots[root] = true
		if root.Syntax == nil || root.TypesInfo == nil {
			t.Errorf("root %s: syntax or type-checker records dropped", root.PkgPath)
		}
	}
	imports := 0
	eachLoaded(res.Model.Roots, func(p *loader.Package) {
		if roots[p] || !checked(p) {
			return
		}
		imports++
		if p.Syntax != nil || p.TypesInfo != nil {
			t.Errorf("import %s: syntax or type-checker records kept", p.PkgPath)
		}
	})
	if imports == 0 {
		t.Fatal("no checked import: the test checks nothing")
	}
}
