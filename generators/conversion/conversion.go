// Package conversion prints hub-and-spoke conversions: Hub() on every hub
// type; ConvertTo and ConvertFrom on every spoke, so the types work with
// controller-runtime; and conversion-gen style autoConvert_/Convert_
// functions for every pair of types reachable from a kind's root. A
// hand-written Convert_ function takes over from the generated one. Data a
// version cannot hold is stashed in an annotation and restored on the way
// back (see the runtime/lossless package).
//
// Like conversion-gen's, the Convert_ functions share memory with their
// input: fields of one type are assigned, and pairs of structs with one
// memory layout (model.Direction.SameLayout) are read as the other type
// through unsafe.Pointer, so a converted object borrows its source's slices,
// maps and pointers. ConvertTo and ConvertFrom still never modify their
// source: the lossless runtime copies what it writes into.
package conversion

import (
	"bytes"
	"path/filepath"
	"slices"
	"sort"

	"github.com/dave/jennifer/jen"
	"sigs.k8s.io/controller-tools/pkg/loader"

	"github.com/crdforge/crdforge/generators/model"
	"github.com/crdforge/crdforge/internal/diag"
	"github.com/crdforge/crdforge/internal/minimums"
	"github.com/crdforge/crdforge/internal/output"
)

// FileName is the name of the generated file in each version package.
const FileName = "zz_generated.conversion.go"

// Import paths the generated code uses, with their pinned aliases.
const (
	metav1Path         = "k8s.io/apimachinery/pkg/apis/meta/v1"
	conversionPath     = "k8s.io/apimachinery/pkg/conversion"
	ctrlConversionPath = "sigs.k8s.io/controller-runtime/pkg/conversion"
	losslessPath       = "github.com/crdforge/crdforge/runtime/lossless"
	conversionTestPath = "github.com/crdforge/crdforge/runtime/conversiontest"
)

// Generator generates conversions.
type Generator struct{}

// Name is the generator's name for --only.
func (Generator) Name() string { return "conversion" }

// Needs is the type pairs of every spoke.
func (Generator) Needs() model.Options { return model.Options{Conversions: true} }

// Requires is what the conversions and their tests need of the module they
// are in: they import crdforge's runtime module.
func (Generator) Requires() minimums.Needs { return minimums.Runtime }

// Generate returns one conversion file per hub and spoke package, and one
// round-trip test file per spoke package.
func (Generator) Generate(m *model.Model, diags *diag.List) []output.File {
	hubs := map[*loader.Package][]*model.Kind{}
	spokes := map[*loader.Package][]*model.Spoke{}
	for _, g := range m.Groups {
		for _, k := range g.Kinds {
			if k.Hub == nil || len(k.Spokes) == 0 {
				continue
			}
			hubs[k.Hub.Package] = append(hubs[k.Hub.Package], k)
			for _, s := range k.Spokes {
				spokes[s.Version.Package] = append(spokes[s.Version.Package], s)
			}
		}
	}
	var files []output.File
	for _, pkg := range m.Roots {
		if len(hubs[pkg]) == 0 && len(spokes[pkg]) == 0 || m.LeftToConversionGen(pkg) {
			continue
		}
		f := newFile(pkg)
		// A file with nothing but its package clause is not written: a hub
		// whose Hub() its author wrote, or whose kinds convert with strategy
		// None, needs no file (a full run deletes an earlier one).
		empty := len(spokes[pkg]) == 0
		for _, k := range hubs[pkg] {
			if printHub(f, k) {
				empty = false
			}
		}
		printed := map[*model.TypePair]bool{}
		for _, s := range spokes[pkg] {
			printSpoke(f, s, printed)
		}
		// Then the same-named structs no kind reaches, as conversion-gen
		// pairs them.
		for _, tp := range m.Pairs[pkg] {
			if !printed[tp] {
				printed[tp], empty = true, false
				for _, d := range tp.Directions() {
					printDirection(f, d)
				}
			}
		}
		if empty {
			continue
		}
		content, err := render(f)
		if err != nil {
			diags.Errorf(pkg.Syntax[0].Package, "printing conversions for %s: %v", pkg.PkgPath, err)
			continue
		}
		code, test := fileNames(m, pkg, diags)
		files = append(files, output.File{Path: filepath.Join(packageDir(pkg), code), Content: content})
		// Round trips go through ConvertTo and ConvertFrom, hand-written ones
		// included; a spoke that implements neither has nothing to test.
		tested := slices.DeleteFunc(slices.Clone(spokes[pkg]), func(s *model.Spoke) bool { return !s.Convertible() })
		if len(tested) > 0 {
			t := newFile(pkg)
			userFill := m.TestFuncs[pkg][FillFuncsName]
			ns := narrowings(tested)
			if len(ns) > 0 {
				printNarrowingFillFuncs(t, ns)
			}
			for _, s := range tested {
				printRoundTripTest(t, s, userFill, len(ns) > 0)
			}
			printNarrowingTests(t, ns, userFill)
			printReachTests(t, tested, userFill, len(ns) > 0)
			content, err := render(t)
			if err != nil {
				diags.Errorf(pkg.Syntax[0].Package, "printing round-trip tests for %s: %v", pkg.PkgPath, err)
				continue
			}
			files = append(files, output.File{Path: filepath.Join(packageDir(pkg), test), Content: content})
		}
	}
	return files
}

// Owns is every root package's conversion files, under either of their
// names (files.go), but for the packages whose conversions are
// conversion-gen's (model.InternalHub) and the package's own file under
// FileName.
func (Generator) Owns(m *model.Model) []string {
	var out []string
	for _, root := range m.Roots {
		if len(root.GoFiles) > 0 && !m.LeftToConversionGen(root) {
			names := []string{OwnFileName, OwnTestFileName}
			if m.OwnFile(root, FileName) == nil {
				names = append(names, FileName, TestFileName)
			}
			for _, name := range names {
				out = append(out, filepath.Join(packageDir(root), name))
			}
		}
	}
	return out
}

func packageDir(pkg *loader.Package) string {
	return filepath.Dir(pkg.GoFiles[0])
}

// newFile starts a generated Go file in pkg with every alias pinned.
func newFile(pkg *loader.Package) *jen.File {
	f := jen.NewFilePathName(pkg.PkgPath, pkg.Name)
	f.HeaderComment("//go:build !ignore_autogenerated")
	f.HeaderComment(output.GoHeader)
	f.ImportAlias(metav1Path, "metav1")
	f.ImportAlias(conversionPath, "conversion")
	f.ImportAlias(ctrlConversionPath, "ctrlconversion")
	f.ImportAlias(losslessPath, "lossless")
	f.ImportAlias(conversionTestPath, "conversiontest")
	pinImports(f, pkg)
	return f
}

// pinImports gives every package that pkg imports the alias pkg's own files
// use for it, or its name, so that jennifer never invents one; a version
// package is called by its version.
func pinImports(f *jen.File, pkg *loader.Package) {
	taken := map[string]string{"metav1": metav1Path, "conversion": conversionPath, "ctrlconversion": ctrlConversionPath,
		"lossless": losslessPath, "conversiontest": conversionTestPath, pkg.Name: pkg.PkgPath}
	var paths []string
	aliases := map[string]string{}
	for _, file := range pkg.Syntax {
		for _, imp := range file.Imports {
			path := imp.Path.Value[1 : len(imp.Path.Value)-1]
			if _, ok := aliases[path]; ok {
				continue
			}
			alias := ""
			if imp.Name != nil && imp.Name.Name != "_" && imp.Name.Name != "." {
				alias = imp.Name.Name
			} else if dep := pkg.Imports()[path]; dep != nil {
				alias = dep.Name
			}
			if alias == "" {
				continue
			}
			aliases[path] = alias
			paths = append(paths, path)
		}
	}
	sort.Strings(paths)
	for _, path := range paths {
		alias := aliases[path]
		if owner, ok := taken[alias]; ok && owner != path {
			continue // a fixed alias wins; jennifer qualifies the rest
		}
		taken[alias] = path
		f.ImportAlias(path, alias)
	}
}

func render(f *jen.File) ([]byte, error) {
	var buf bytes.Buffer
	if err := f.Render(&buf); err != nil {
		return nil, err
	}
	return output.GroupImports(buf.Bytes()), nil
}

// printHub prints Hub() for a kind's hub type, and reports whether it did.
func printHub(f *jen.File, k *model.Kind) bool {
	if k.HubMethod != nil {
		return false // the author wrote it
	}
	if !slices.ContainsFunc(k.Spokes, func(s *model.Spoke) bool { return !s.NoEntryPoints || s.Convertible() }) {
		return false // strategy None: no version converts to the hub
	}
	name := k.Hub.Type.Obj().Name()
	f.Commentf("Hub marks %s as the hub of its conversions: every other version of", name)
	f.Commentf("%s converts to and from %s.", k.Name, k.Hub.Name)
	f.Func().Params(jen.Op("*").Id(name)).Id("Hub").Params().Block()
	f.Var().Id("_").Qual(ctrlConversionPath, "Hub").Op("=").Op("&").Id(name).Values()
	return true
}

// printSpoke prints a spoke's ConvertTo and ConvertFrom and the functions
// of every pair it reaches that the file does not hold yet: kinds that share
// types share their functions.
func printSpoke(f *jen.File, s *model.Spoke, printed map[*model.TypePair]bool) {
	root := s.Pairs[0]
	for _, d := range root.Directions() {
		if s.Generates(d) {
			printEntry(f, d)
		}
	}
	if s.Generates(root.ToHub) || s.Generates(root.ToSpoke) {
		for _, d := range root.Directions() {
			if d.Loss == model.LossChecked {
				printLostIn(f, d)
			}
		}
	}
	for _, tp := range s.Pairs {
		if printed[tp] {
			continue
		}
		printed[tp] = true
		for _, d := range tp.Directions() {
			printDirection(f, d)
		}
	}
}
