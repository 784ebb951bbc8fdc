package load

import (
	"errors"
	"go/build"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"

	"golang.org/x/tools/go/packages"
	"sigs.k8s.io/controller-tools/pkg/loader"
)

// The command line's patterns, turned into one list of exact import paths
// per Go module, so that the load takes every package of a module in one
// go/packages call.
//
// controller-tools' loader, given filesystem patterns (./api/..., /abs/dir),
// runs one go/packages load per pattern, each from the pattern's directory,
// so that patterns may reach into nested modules; it then points every
// import of a root at that root. Every other package two patterns reach
// (k8s.io/apimachinery, a shared types package that is no root) is loaded
// once per pattern, as two packages whose types differ: a field of
// metav1.Time in a spoke of one pattern and in its hub of another are then
// "different types" to the model. Given import paths instead, the loader
// loads them all in one call. So each pattern is listed here (go list
// -find: no dependencies, a fraction of a second) in the module its
// directory belongs to, and what it names is passed on as import paths,
// module by module.

// moduleLoad is what to load from one module.
type moduleLoad struct {
	// dir is where the go command runs: the module's root.
	dir string
	// paths are the exact import paths to load, sorted, each once.
	paths []string
	// alone, when set, is the run's one pattern, loaded as it is from its
	// directory (dir) instead of listed first: paths is its argument.
	alone *pattern
}

// pattern is one pattern of the command line as the go command lists it.
type pattern struct {
	// given is the pattern as on the command line: errors name it.
	given string
	// module is the root of the module whose load its packages join.
	module string
	// dir is where the go command lists it: a filesystem pattern's
	// directory (its elements before the first wildcard), as
	// controller-tools' loader runs the go command there; the run's
	// directory for an import path.
	dir string
	// arg is the pattern relative to dir ("./...", ".") or an import path.
	arg string
}

// plan lists patterns (relative to dir) module by module. A filesystem
// pattern belongs to the module of its directory; one that ends in "/..."
// also names every module nested below its directory, as controller-tools'
// loader has it (a go.mod anywhere below), each listed as "./..." from its
// own root. An import path belongs to dir's module; one with no wildcard is
// passed on as it is, for the load to report if nothing provides it.
// Every pattern that names no package is an error, and all of them are
// reported together.
func plan(dir string, patterns []string) ([]moduleLoad, error) {
	failed := map[string]error{}
	var pats []pattern
	for _, given := range patterns {
		ps, err := expand(dir, given)
		if err != nil {
			failed[given] = err
			continue
		}
		pats = append(pats, ps...)
	}
	if len(failed) == 0 && len(pats) == 1 {
		// One pattern is one load whichever way it is written, so nothing
		// can be loaded twice: it is loaded without a listing where it
		// can be, which saves the go command a large part of a second
		// (loadAlone reports what list would).
		if m, ok := aloneLoad(pats[0]); ok {
			return []moduleLoad{m}, nil
		}
	}
	found, errs := listAll(pats)
	byModule := map[string][]string{}
	matched := map[string]bool{}
	for i, p := range pats {
		if errs[i] != nil {
			failed[p.given] = errs[i]
		}
		if len(found[i]) > 0 {
			matched[p.given] = true
		}
		byModule[p.module] = append(byModule[p.module], found[i]...)
	}
	// Errors in the order of the command line, one per pattern.
	var all []error
	reported := map[string]bool{}
	for _, given := range patterns {
		if reported[given] {
			continue
		}
		reported[given] = true
		switch {
		case failed[given] != nil:
			all = append(all, failed[given])
		case !matched[given]:
			all = append(all, &patternError{given, "matches no Go package"})
		}
	}
	if len(all) > 0 {
		return nil, errors.Join(all...)
	}
	var out []moduleLoad
	for module, paths := range byModule {
		slices.Sort(paths)
		out = append(out, moduleLoad{dir: module, paths: slices.Compact(paths)})
	}
	slices.SortFunc(out, func(a, b moduleLoad) int { return strings.Compare(a.dir, b.dir) })
	return out, nil
}

// patternError is a pattern that names nothing to load.
type patternError struct {
	pattern, msg string
}

func (e *patternError) Error() string { return "pattern " + e.pattern + ": " + e.msg }

// Unwrap is the cause alone, so that the CLI prints the pattern as the
// headline and why it names nothing as a note (diag.FromError), however long
// the directory it names.
func (e *patternError) Unwrap() error { return errors.New(e.msg) }

// isFilesystem reports whether the go command takes pattern as a directory
// rather than an import path: an absolute path, or one starting with . or ..
func isFilesystem(pattern string) bool {
	return filepath.IsAbs(pattern) || build.IsLocalImport(pattern)
}

// expand is the pattern given as the go command lists it: in the module of
// its directory, and, for a pattern ending in "/...", in every module nested
// below that directory too.
func expand(dir, given string) ([]pattern, error) {
	if !isFilesystem(given) {
		return []pattern{{given: given, module: moduleRootOr(dir), dir: dir, arg: given}}, nil
	}
	abs := given
	if !filepath.IsAbs(abs) {
		abs = filepath.Join(dir, abs)
	}
	abs = filepath.Clean(abs)
	fixed := fixedDir(abs)
	switch st, err := os.Stat(fixed); {
	case err != nil:
		return nil, &patternError{given, "no directory " + fixed}
	case !st.IsDir():
		return nil, &patternError{given, fixed + " is not a directory"}
	}
	// Listed from its own directory, the pattern's elements are no
	// longer the go command's to judge: "./testdata/_x/..." from the
	// module's root matches nothing (a wildcard skips directories named
	// testdata or starting with _ or .), "./..." in testdata/_x what is
	// there, as controller-tools' loader has it.
	var out []pattern
	if module := moduleRoot(fixed); module != "" {
		rel, err := filepath.Rel(fixed, abs)
		if err != nil {
			return nil, &patternError{given, err.Error()}
		}
		out = append(out, pattern{given: given, module: module, dir: fixed, arg: "./" + filepath.ToSlash(rel)})
	}
	if filepath.Base(abs) == "..." && fixed == filepath.Dir(abs) {
		nested, err := nestedModules(fixed)
		if err != nil {
			return nil, &patternError{given, err.Error()}
		}
		for _, module := range nested {
			if len(out) == 0 || module != out[0].module {
				out = append(out, pattern{given: given, module: module, dir: module, arg: "./..."})
			}
		}
	}
	if len(out) == 0 {
		return nil, &patternError{given, fixed + " is in no Go module (no go.mod in it or above it)"}
	}
	return out, nil
}

// fixedDir is the directory a filesystem pattern starts in: its elements
// before the first with a wildcard.
func fixedDir(abs string) string {
	for d := abs; ; d = filepath.Dir(d) {
		if !strings.Contains(d, "...") {
			return d
		}
	}
}

// nestedModules lists the directories below dir, dir included, that hold a
// go.mod: every one, as controller-tools' loader finds them.
func nestedModules(dir string) ([]string, error) {
	var out []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && d.Name() == "go.mod" {
			out = append(out, filepath.Dir(p))
		}
		return nil
	})
	return out, err
}

// moduleRoot is the directory of the go.mod nearest above dir (dir
// included), "" when there is none.
func moduleRoot(dir string) string {
	for {
		if st, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil && !st.IsDir() {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

// moduleRootOr is dir's module root, or dir itself outside any module.
func moduleRootOr(dir string) string {
	if m := moduleRoot(dir); m != "" {
		return m
	}
	return dir
}

// listAll lists every pattern, a few at a time, and returns the import
// paths each names, or its error.
func listAll(pats []pattern) ([][]string, []error) {
	found := make([][]string, len(pats))
	errs := make([]error, len(pats))
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	var wg sync.WaitGroup
	for i, p := range pats {
		if !isFilesystem(p.arg) && !strings.Contains(p.arg, "...") {
			found[i] = []string{p.arg}
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			found[i], errs[i] = list(p)
		}()
	}
	wg.Wait()
	return found, errs
}

// list asks the go command which packages p names, with the load's build
// tag, without their dependencies. A package the go command cannot name by
// an import path (a directory with no Go file: go list then echoes the
// pattern) stands for an error of the pattern itself. Other packages with
// errors are kept, for the load to report, as it reports them under ./...
func list(p pattern) ([]string, error) {
	cfg := &packages.Config{
		Mode:       packages.NeedName,
		Dir:        p.dir,
		BuildFlags: []string{"-tags=" + ignoreAutogenerated},
	}
	pkgs, err := packages.Load(cfg, p.arg)
	if err != nil {
		return nil, &patternError{p.given, err.Error()}
	}
	var paths, msgs []string
	for _, pkg := range pkgs {
		if pkg.PkgPath != "" && !isFilesystem(pkg.PkgPath) {
			paths = append(paths, pkg.PkgPath)
			continue
		}
		for _, e := range pkg.Errors {
			msgs = append(msgs, e.Msg)
		}
	}
	if len(paths) == 0 && len(msgs) > 0 {
		return nil, &patternError{p.given, strings.Join(msgs, "; ")}
	}
	return paths, nil
}

// aloneLoad is the load of p, a run's one pattern, without a listing,
// when that loads p once: false for a filesystem pattern with a wildcard
// in a module's root. controller-tools' loader walks the directory of a
// "/..." pattern for nested modules, finds the module's own go.mod there
// and loads the whole module twice; and it cannot load a pattern with a
// wildcard before its last element (./api/.../v1). Those are listed. (The
// import path pattern of the module, example.com/m/..., would be one load,
// but the go command then reads the go.mod of every module the build
// needs, where ./... reads only those that provide packages.)
func aloneLoad(p pattern) (moduleLoad, bool) {
	if isFilesystem(p.arg) && strings.Contains(p.arg, "...") && (p.arg != "./..." || p.dir == p.module) {
		return moduleLoad{}, false
	}
	return moduleLoad{dir: p.dir, paths: []string{p.arg}, alone: &p}, true
}

// loadAlone loads m, a run's one pattern, as it is, and reports the
// errors list would have for it: a pattern that matches no package, or
// one the go command can only echo (a directory with no Go file). The
// echoed package is no root, as it would not be after a listing.
func loadAlone(m moduleLoad, fset *token.FileSet) ([]*loader.Package, error) {
	loaded, err := loadRoots(m.dir, fset, m.paths...)
	if err != nil {
		return nil, err
	}
	var roots []*loader.Package
	var msgs []string
	for _, root := range loaded {
		if root.PkgPath != "" && !isFilesystem(root.PkgPath) {
			roots = append(roots, root)
			continue
		}
		for _, e := range root.Errors {
			msgs = append(msgs, e.Msg)
		}
	}
	switch {
	case len(roots) > 0:
		return roots, nil
	case len(msgs) > 0:
		return nil, &patternError{m.alone.given, strings.Join(msgs, "; ")}
	}
	return nil, &patternError{m.alone.given, "matches no Go package"}
}

// shareRoots points every import of a root, in the loads of every module,
// at that root, as controller-tools' loader does across the loads of its
// filesystem patterns: a hub in one module that a spoke in another imports
// is then one package. Any other package that two modules reach, such as
// k8s.io/apimachinery's, stays one package per module's load, with types of
// its own: a conversion between types of two modules would see their
// metav1.Time as different types. Patterns of one module never meet this:
// they are one load.
func shareRoots(roots []*loader.Package) {
	byPath := map[string]*loader.Package{}
	for _, root := range roots {
		byPath[root.PkgPath] = root
	}
	visited := map[*loader.Package]bool{}
	var visit func(p *loader.Package)
	visit = func(p *loader.Package) {
		if visited[p] {
			return
		}
		visited[p] = true
		imports := p.Imports()
		for path, imp := range imports {
			if root := byPath[path]; root != nil && root != imp {
				imports[path] = root // the map the loader keeps: its type checker imports through it
			}
			visit(imports[path])
		}
	}
	for _, root := range roots {
		visit(root)
	}
}
