package load

import (
	"go/ast"
	"go/token"
	"regexp"
	"slices"
	"strings"
	"sync"

	"sigs.k8s.io/controller-tools/pkg/loader"

	"github.com/crdforge/crdforge/internal/diag"
)

// A run for CRDs alone needs the types of the API packages only, as
// controller-gen's crd generator does; `./...` in an operator's repository
// also names its manager, controllers and generated clients, whose imports
// (controller-runtime, client-go, net/http and the rest of the standard
// library) are most of what Check would parse and type-check: on
// OpenKruise's API module, 1981 files of 348 packages, two thirds of the
// run. CheckAPIs checks only the roots the model can read, and leaves the
// others parsed (their markers are read) but unchecked.

// CheckAPIs is Check for the roots that API packages need, found from
// their source before anything is checked:
//
//   - a root whose comments hold +groupName (an API package) or
//     +k8s:conversion-gen (a package conversion-gen converts, or that names
//     the internal version its types convert through);
//   - a root a +k8s:conversion-gen tag names by its import path;
//   - a root that declares a top-level Convert_ function: the model looks
//     for hand-written conversions in every root (conversion-gen's peers);
//   - a root any of those imports, directly or not.
//
// Matching the text, not the parsed markers, takes in more roots than
// needed (a +groupName in a type's comment), never fewer. The roots left
// out are never type-checked, so their type errors go unreported, as
// controller-gen reports none.
func (r *Result) CheckAPIs() {
	r.parseRoots()
	checked := apiRoots(r.Roots)
	r.Unchecked = map[*loader.Package]bool{}
	for _, root := range r.Roots {
		if !slices.Contains(checked, root) {
			r.Unchecked[root] = true
		}
	}
	r.check(checked)
	r.typesOnly = true
}

// A run for CRDs alone makes them from type declarations. A type error
// anywhere else in an API package (`var _ webhook.Defaulter = &Cluster{}`
// whose DeepCopyObject the hidden zz_generated.deepcopy.go declares, or
// whose interface the check took only as far as schemas need) changes no
// CRD, and controller-gen reports none; explaining it by the generated
// files would type-check every import from source (artefacts.go), which on
// Cluster API providers costs more than the rest of the run. So such a run
// reports a root's type errors in type declarations only.

// inTypeDecl reports whether pos, a type error's "file:line:col", lies in a
// type declaration of root; true when it cannot tell.
func (r *Result) inTypeDecl(root *loader.Package, pos string) bool {
	p := diag.ParsePosition(pos)
	if p.Line < 1 {
		return true
	}
	for _, f := range root.Syntax {
		tf := r.Fset.File(f.Pos())
		if tf == nil || tf.Name() != p.Filename {
			continue
		}
		if p.Line > tf.LineCount() {
			return true
		}
		at := tf.LineStart(p.Line) + token.Pos(max(p.Column-1, 0))
		for _, d := range f.Decls {
			if gd, ok := d.(*ast.GenDecl); ok && gd.Tok == token.TYPE && gd.Pos() <= at && at < gd.End() {
				return true
			}
		}
		return false
	}
	return true
}

// parseRoots parses every root ahead, side by side (parse.go).
func (r *Result) parseRoots() {
	var wg sync.WaitGroup
	for _, root := range r.Roots {
		wg.Go(func() { r.parse(root) })
	}
	wg.Wait()
}

var conversionGenTag = regexp.MustCompile(`\+k8s:conversion-gen=([^\s,]+)`)

// apiRoots selects, in the order of roots, those CheckAPIs checks.
func apiRoots(roots []*loader.Package) []*loader.Package {
	selected := map[*loader.Package]bool{}
	named := map[string]bool{}
	for _, root := range roots {
		for _, f := range root.Syntax {
			if declaresConvert(f) {
				selected[root] = true
			}
			for _, g := range f.Comments {
				for _, c := range g.List { // the raw text: CommentGroup.Text drops directives
					if strings.Contains(c.Text, "+groupName") || strings.Contains(c.Text, "+k8s:conversion-gen") {
						selected[root] = true
					}
					for _, m := range conversionGenTag.FindAllStringSubmatch(c.Text, -1) {
						named[m[1]] = true
					}
				}
			}
		}
	}
	isRoot := map[string]*loader.Package{}
	for _, root := range roots {
		isRoot[root.PkgPath] = root
		if named[root.PkgPath] {
			selected[root] = true
		}
	}
	// What the selected roots import, directly or not, among the roots.
	seen := map[*loader.Package]bool{}
	var visit func(p *loader.Package)
	visit = func(p *loader.Package) {
		if seen[p] {
			return
		}
		seen[p] = true
		if isRoot[p.PkgPath] == p {
			selected[p] = true
		}
		for _, imp := range p.Imports() {
			visit(imp)
		}
	}
	for _, root := range roots {
		if selected[root] {
			visit(root)
		}
	}
	return slices.DeleteFunc(slices.Clone(roots), func(p *loader.Package) bool { return !selected[p] })
}

// declaresConvert reports whether f declares a top-level function whose
// name starts with Convert_.
func declaresConvert(f *ast.File) bool {
	for _, d := range f.Decls {
		if fn, ok := d.(*ast.FuncDecl); ok && fn.Recv == nil && strings.HasPrefix(fn.Name.Name, "Convert_") {
			return true
		}
	}
	return false
}
