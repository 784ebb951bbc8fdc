package load

import (
	"go/ast"
	"go/parser"
	"os"
	"sync"

	"golang.org/x/tools/go/packages"
	"sigs.k8s.io/controller-tools/pkg/loader"
)

// parseAhead parses, before Check type-checks anything, the packages it will
// type-check: the roots, every package their type declarations reach, and
// recursively what those reach through the checker's node filters, and the
// roots' direct imports, which Check checks at least
// shallowly. Packages are parsed side by side, each as soon as the package
// that reaches it is parsed.
//
// controller-tools' loader parses a package on first need, with go/parser's
// object resolution: the ast.Object and scope of every identifier, which
// nothing downstream reads (go/types resolves names itself; neither
// controller-tools nor crdforge looks at ast.Ident.Obj). Parsing without it
// (parser.SkipObjectResolution) takes about a third less time and a fifth
// less memory on k8s.io/api and apimachinery's sources, which a CRD run
// spends most of its parsing on. The trees are otherwise the same, and
// Package.NeedSyntax keeps a tree it finds in place.
//
// A package whose files do not all read and parse is left unparsed, for
// NeedSyntax to parse again and record the errors as it always does. A
// package reached here that Check does not check only costs its parse.
func (r *Result) parseAhead(isRoot map[*loader.Package]bool) {
	var (
		mu   sync.Mutex
		seen = map[*loader.Package]bool{}
		wg   sync.WaitGroup
	)
	// visit parses pkg, then, when follow is set, what its type
	// declarations reach.
	var visit func(pkg *loader.Package, follow bool)
	visit = func(pkg *loader.Package, follow bool) {
		mu.Lock()
		if seen[pkg] {
			mu.Unlock()
			return
		}
		seen[pkg] = true
		mu.Unlock()
		wg.Go(func() {
			if !r.parse(pkg) || !follow {
				return
			}
			interesting := r.interesting
			if isRoot[pkg] {
				interesting = everything
			}
			for _, imp := range typeReferenced(pkg, interesting) {
				visit(imp, true)
			}
		})
	}
	for pkg := range isRoot {
		visit(pkg, true)
	}
	wg.Wait()
	// Then the direct imports that no type declaration reaches, after the
	// others, so that a package both reach is followed.
	for pkg := range isRoot {
		for _, imp := range pkg.Imports() {
			visit(imp, false)
		}
	}
	wg.Wait()
}

// parse sets pkg's syntax trees, parsed as controller-tools' loader parses
// them (comments and all) but without object resolution and without the
// statements of function bodies, unless pkg has them already. It reports
// whether pkg has them now.
func (r *Result) parse(pkg *loader.Package) bool {
	if pkg.Syntax != nil {
		return true
	}
	files := make([]*ast.File, len(pkg.CompiledGoFiles))
	blank := readOnly(pkg)
	for i, name := range pkg.CompiledGoFiles {
		src, err := os.ReadFile(name)
		if err != nil {
			return false
		}
		if blank {
			src = blankBodies(src)
		}
		files[i], err = parser.ParseFile(r.Fset, name, src, parser.AllErrors|parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			return false
		}
		dropBodies(files[i])
	}
	pkg.Syntax = files
	return true
}

// readOnly reports whether pkg's files are ones nobody edits: the standard
// library's (in no module), or a required module's from the module cache,
// not the main module's nor one replaced by a directory. Only those have
// their bodies blanked before parsing (blankBodies): an error in a body of
// the user's is reported, as the loader reports it.
func readOnly(pkg *loader.Package) bool { return !edited(pkg.Module) }

// edited reports whether m is a module somebody edits: the main module, or
// one replaced by a directory. The standard library (nil) is not.
func edited(m *packages.Module) bool {
	return m != nil && (m.Main || (m.Replace != nil && m.Replace.Version == ""))
}

// dropBodies empties the body of every function declared in f, keeping its
// braces, but for the ConvertTo and ConvertFrom methods. Nothing else reads a
// statement: every type-check here and in controller-tools ignores function
// bodies, and the marker collector skips the comments up to the end of a
// function, which its braces still mark. The statements are most of what a
// package's tree holds (apimachinery's above all), and a run keeps every
// tree to its end: a 400-kind run kept 22 MB of them, which every garbage
// collection marked again and the heap grew by twice over. A hand-written
// ConvertTo or ConvertFrom (a spoke has one or two, in an API package) may
// call generated checks that nothing else calls, which the model keeps
// generated only then (plan.settleLossyCalls).
func dropBodies(f *ast.File) {
	for _, d := range f.Decls {
		if fn, ok := d.(*ast.FuncDecl); ok && fn.Body != nil && !convertibleMethod(fn) {
			fn.Body = &ast.BlockStmt{Lbrace: fn.Body.Lbrace, Rbrace: fn.Body.Rbrace}
		}
	}
}

// convertibleMethod reports whether fn is a method named as one of
// controller-runtime's conversion.Convertible.
func convertibleMethod(fn *ast.FuncDecl) bool {
	return fn.Recv != nil && (fn.Name.Name == "ConvertTo" || fn.Name.Name == "ConvertFrom")
}
