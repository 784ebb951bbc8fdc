package newversion

import (
	"go/ast"
	"go/token"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/crdforge/crdforge/markers"
)

// copyPackage returns the hand-written files of the package in fromDir as
// they are to be in newDir, at version opts.New.
// fromPath is the package's import path, which external tests import.
// dropNoCounterpart removes +crdforge:nocounterpart markers: a copy of the
// hub pairs every one of its fields with the hub's.
func copyPackage(fromDir, newDir, group, from, fromPath string, opts Options, kinds []string, dropNoCounterpart bool) ([]File, error) {
	files, err := sourceFiles(fromDir, true)
	if err != nil {
		return nil, err
	}
	hasStorage, hasHub := false, false
	for _, e := range files {
		renameVersion(e, group, from, opts.New, fromPath, path.Join(path.Dir(fromPath), opts.New))
		for _, cg := range e.file.Comments {
			for _, c := range cg.List {
				m := markerOf(c)
				switch {
				case m == "":
				case isMarker(m, "+kubebuilder:storageversion"):
					hasStorage = true
					if !opts.Storage {
						e.dropLine(c)
					}
				case isMarker(m, "+crdforge:hub"):
					hasHub = true
					if !opts.Hub {
						e.dropLine(c)
					}
				case isMarker(m, "+"+markers.NoCounterpartName):
					if dropNoCounterpart {
						e.dropLine(c)
					}
				case isMarker(m, "+kubebuilder:deprecatedversion"), isMarker(m, "+kubebuilder:unservedversion"):
					// A new version starts served and not deprecated.
					e.dropLine(c)
				}
			}
		}
	}
	if pf := packageDocFile(files); opts.Hub && !hasHub && pf != nil {
		pf.insertLineBefore(pf.file.Package, "+crdforge:hub")
	}
	if opts.Storage && !hasStorage {
		for _, e := range files {
			for _, g := range rootTypes(e.file, kinds) {
				e.insertLineBefore(g.Pos(), "+kubebuilder:storageversion")
			}
		}
	}
	var out []File
	for _, e := range files {
		b, err := e.result()
		if err != nil {
			return nil, err
		}
		out = append(out, File{Path: filepath.Join(newDir, filepath.Base(e.path)), Content: b})
	}
	return out, nil
}

// renameVersion plans, in a file copied from version from to version to:
// the package clause; string literals that are exactly the version (the
// GroupVersion's Version); conversion-gen style names
// (Convert_v1beta1_CronTab_To_v1_CronTab, autoConvert_...), whose version
// parts name packages; apiVersion strings ("example.com/v1"); and the
// version as a word in the package comment.
//
// An external test package (package v1_test) imports the package: its
// import path and, where no alias names it, its references change too.
func renameVersion(e *editedFile, group, from, to, fromPath, toPath string) {
	pkgName := to
	if strings.HasSuffix(e.file.Name.Name, "_test") {
		pkgName = to + "_test"
	}
	e.replace(e.file.Name.Pos(), e.file.Name.End(), pkgName)
	literals := map[string]string{
		strconv.Quote(from): strconv.Quote(to), "`" + from + "`": strconv.Quote(to),
		strconv.Quote(group + "/" + from): strconv.Quote(group + "/" + to), "`" + group + "/" + from + "`": strconv.Quote(group + "/" + to),
	}
	unaliased := false
	for _, imp := range e.file.Imports {
		if imp.Path.Value == strconv.Quote(fromPath) {
			e.replace(imp.Path.Pos(), imp.Path.End(), strconv.Quote(toPath))
			unaliased = imp.Name == nil
		}
	}
	ast.Inspect(e.file, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.SelectorExpr:
			if x, ok := n.X.(*ast.Ident); ok && unaliased && x.Name == from && x.Obj == nil {
				e.replace(x.Pos(), x.End(), to)
			}
		case *ast.BasicLit:
			if lit, ok := literals[n.Value]; ok && n.Kind == token.STRING {
				e.replace(n.Pos(), n.End(), lit)
			}
		case *ast.Ident:
			if n == e.file.Name {
				return true
			}
			if renamed := renameConvertFunc(n.Name, from, to); renamed != n.Name {
				e.replace(n.Pos(), n.End(), renamed)
			}
		}
		return true
	})
	if e.file.Doc == nil {
		return
	}
	word := regexp.MustCompile(`\b` + regexp.QuoteMeta(from) + `\b`)
	for _, c := range e.file.Doc.List {
		if markerOf(c) != "" {
			continue
		}
		base := e.off(c.Pos())
		for _, loc := range word.FindAllStringIndex(c.Text, -1) {
			e.edits = append(e.edits, edit{base + loc[0], base + loc[1], to})
		}
	}
}

// renameConvertFunc renames the version parts equal to from of a
// conversion-gen style function name; any other name is returned as is.
func renameConvertFunc(name, from, to string) string {
	if !strings.HasPrefix(name, "Convert_") && !strings.HasPrefix(name, "autoConvert_") {
		return name
	}
	parts := strings.Split(name, "_")
	if !slices.Contains(parts[1:], from) {
		return name
	}
	for i := 1; i < len(parts); i++ {
		if parts[i] == from {
			parts[i] = to
		}
	}
	return strings.Join(parts, "_")
}
