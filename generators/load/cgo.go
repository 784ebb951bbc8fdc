package load

import (
	"go/build/constraint"
	"go/parser"
	"go/token"
	"os"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/tools/go/packages"
	"sigs.k8s.io/controller-tools/pkg/loader"
)

// loadRoots is controller-tools' load of paths from dir, the go command
// asked for less than it is by default where that gives the same packages.
//
// go/packages asks go list for each package's compiled files (-compiled),
// because cgo rewrites a package's files before the compiler sees them.
// Working them out costs go list some 0.1 CPU-seconds on a tree that
// imports k8s.io/api, more than half of the listing, and every run lists:
// it hashes every dependency's sources to find cgo's output in the build
// cache. Without cgo (CGO_ENABLED=0), a package's compiled files are its Go
// files, so the load lists without it and without -compiled. In the graph
// of API packages the cgo is the standard library's (net, os/user,
// runtime/cgo), which builds without it to the same API; a required
// module's cgo package is listed as a build without cgo takes it.
// Packages somebody edits (the main module's, a directory replacement's)
// are different: when one has a file that imports "C" or whose build
// constraint names cgo, the roots are loaded again as the go command
// builds them, so that such a package is type-checked from what its build
// compiles.
func loadRoots(dir string, fset *token.FileSet, paths ...string) ([]*loader.Package, error) {
	cfg := &packages.Config{
		Dir: dir, Mode: packages.NeedModule, Fset: fset,
		Env:        append(os.Environ(), "CGO_ENABLED=0"),
		BuildFlags: []string{"-compiled=false"},
	}
	roots, err := loader.LoadRootsWithConfig(cfg, paths...)
	if err != nil || !differsWithoutCgo(roots) {
		return roots, err
	}
	return loader.LoadRootsWithConfig(&packages.Config{Dir: dir, Mode: packages.NeedModule, Fset: fset}, paths...)
}

// differsWithoutCgo reports whether a package reachable from roots that
// somebody edits has a file that a build without cgo may take differently:
// one that imports "C" (left out) or whose build constraint names the cgo
// tag (left out, or taken in by !cgo).
func differsWithoutCgo(roots []*loader.Package) bool {
	found := false
	packages.Visit(rawPackages(roots), func(p *packages.Package) bool {
		if found || !edited(p.Module) {
			return !found
		}
		for _, name := range slices.Concat(p.GoFiles, p.IgnoredFiles) {
			if strings.HasSuffix(name, ".go") && needsCgo(name) {
				found = true
				break
			}
		}
		return !found
	}, nil)
	return found
}

// needsCgo reports whether the Go file at path imports "C" or has a build
// constraint that names the cgo tag. A file that does not read or parse
// counts as needing it: the load as the go command builds is the one that
// reports it.
func needsCgo(path string) bool {
	f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly|parser.ParseComments)
	if err != nil {
		return true
	}
	for _, imp := range f.Imports {
		if p, _ := strconv.Unquote(imp.Path.Value); p == "C" {
			return true
		}
	}
	for _, g := range f.Comments {
		if g.Pos() >= f.Package {
			break
		}
		for _, c := range g.List {
			if expr, err := constraint.Parse(c.Text); err == nil && namesTag(expr, "cgo") {
				return true
			}
		}
	}
	return false
}

// namesTag reports whether the build constraint expr names tag anywhere.
func namesTag(expr constraint.Expr, tag string) bool {
	switch x := expr.(type) {
	case *constraint.TagExpr:
		return x.Tag == tag
	case *constraint.NotExpr:
		return namesTag(x.X, tag)
	case *constraint.AndExpr:
		return namesTag(x.X, tag) || namesTag(x.Y, tag)
	case *constraint.OrExpr:
		return namesTag(x.X, tag) || namesTag(x.Y, tag)
	}
	return false
}
