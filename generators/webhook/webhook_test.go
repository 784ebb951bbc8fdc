package webhook

import (
	"bytes"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"
	"sigs.k8s.io/controller-tools/pkg/loader"

	"github.com/crdforge/crdforge/generators/load"
	"github.com/crdforge/crdforge/generators/model"
	"github.com/crdforge/crdforge/internal/diag"
	"github.com/crdforge/crdforge/internal/output"
	"github.com/crdforge/crdforge/markers"
)

// kind is a webhook-converted kind whose versions live in the packages
// given as version name → package path; the first is the hub. Each
// package's name is its path's last element.
func kind(group, name string, versions ...[2]string) *model.Kind {
	k := &model.Kind{Group: group, Name: name, Conversion: model.Conversion{Strategy: markers.StrategyWebhook}}
	for _, vp := range versions {
		pkgName := path.Base(vp[1])
		tpkg := types.NewPackage(vp[1], pkgName)
		v := &model.Version{
			Kind:    k,
			Name:    vp[0],
			Package: &loader.Package{Package: &packages.Package{PkgPath: vp[1], Name: pkgName, Types: tpkg}},
			Spec:    &ast.TypeSpec{Name: ast.NewIdent(name)},
			Type:    types.NewNamed(types.NewTypeName(token.NoPos, tpkg, name, nil), types.NewStruct(nil, nil), nil),
		}
		k.Versions = append(k.Versions, v)
	}
	k.Hub = k.Versions[0]
	return k
}

// generate prints the main of kinds and returns its imports, alias (or ""
// for none) by path.
func generate(t *testing.T, kinds ...*model.Kind) map[string]string {
	t.Helper()
	m := &model.Model{ImportPath: "example.com/proj", Project: "proj", Groups: []*model.Group{{Kinds: kinds}}}
	diags := diag.New(token.NewFileSet())
	files := Generator{}.Generate(m, diags)
	if diags.HasErrors() || len(files) < 2 { // the main and its codecs
		t.Fatalf("%d files, diagnostics %v", len(files), diags.Items())
	}
	f, err := parser.ParseFile(token.NewFileSet(), files[0].Path, files[0].Content, parser.ImportsOnly)
	if err != nil {
		t.Fatalf("the main does not parse: %v\n%s", err, files[0].Content)
	}
	imports := map[string]string{}
	names := map[string]string{}
	for _, spec := range f.Imports {
		p, _ := strconv.Unquote(spec.Path.Value)
		name := path.Base(p)
		if spec.Name != nil {
			name = spec.Name.Name
			imports[p] = name
		} else {
			imports[p] = ""
		}
		if other, dup := names[name]; dup {
			t.Errorf("%s and %s are both imported as %s", other, p, name)
		}
		names[name] = p
	}
	return imports
}

func TestMainImportsRuntimeWebhookUnaliasedNextToAnAPIPackageNamedWebhook(t *testing.T) {
	imports := generate(t, kind("example.com", "Widget",
		[2]string{"v1", "example.com/proj/api/v1"},
		[2]string{"v1alpha1", "example.com/proj/webhook"}, // a package named webhook
	))
	for p, want := range map[string]string{
		webhookPath:                "",
		kruntimePath:               "kruntime",
		"example.com/proj/api/v1":  "examplecomv1",
		"example.com/proj/webhook": "examplecomv1alpha1",
	} {
		if got, ok := imports[p]; !ok || got != want {
			t.Errorf("%s imported as %q (imported: %v), want %q", p, got, ok, want)
		}
	}
}

func TestAPIAliasesStayClearOfTheMainsNamesAndOfEachOther(t *testing.T) {
	imports := generate(t,
		kind("w.eb", "Hook", [2]string{"hook", "example.com/proj/a/hook"}),   // webhook
		kind("ab.c", "Thing", [2]string{"v1", "example.com/proj/b/v1"}),      // abcv1
		kind("a.bc", "Other", [2]string{"v1", "example.com/proj/c/v1"}),      // abcv1 again
		kind("n.e", "Thing", [2]string{"w", "example.com/proj/d/w"}),         // new
		kind("kr.un", "Thing", [2]string{"time", "example.com/proj/e/time"}), // kruntime
	)
	for p, want := range map[string]string{
		webhookPath:               "",
		kruntimePath:              "kruntime",
		"example.com/proj/a/hook": "webhook_2",
		"example.com/proj/b/v1":   "abcv1",
		"example.com/proj/c/v1":   "abcv1_2",
		"example.com/proj/d/w":    "new_2",
		"example.com/proj/e/time": "kruntime_2",
	} {
		if got := imports[p]; got != want {
			t.Errorf("%s imported as %q, want %q", p, got, want)
		}
	}
}

// In a kubebuilder project the main is generated only when the project
// requires crdforge's webhook module; the manager serves conversions
// otherwise, and a main importing a module the project lacks would not
// build.
func TestKubebuilderProjectGetsTheMainOnlyWhenItRequiresTheWebhookModule(t *testing.T) {
	k := kind("example.com", "Widget", [2]string{"v1", "example.com/proj/api/v1"}, [2]string{"v2", "example.com/proj/api/v2"})
	for _, tc := range []struct {
		name  string
		kb    *load.KubebuilderProject
		files int
	}{
		{"no kubebuilder project", nil, 4},
		{"kubebuilder, the manager's webhook", &load.KubebuilderProject{Name: "proj"}, 0},
		{"kubebuilder, crdforge's webhook required", &load.KubebuilderProject{Name: "proj", StandaloneWebhook: true}, 4},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := &model.Model{ImportPath: "example.com/proj", Project: "proj", Kubebuilder: tc.kb, Groups: []*model.Group{{Kinds: []*model.Kind{k}}}}
			diags := diag.New(token.NewFileSet())
			g := Generator{Main: "cmd/webhook/main.go"}
			files := g.Generate(m, diags)
			if diags.HasErrors() || len(files) != tc.files {
				t.Fatalf("%d files, want %d; diagnostics %v", len(files), tc.files, diags.Items())
			}
			var paths []string
			for _, f := range files {
				paths = append(paths, f.Path)
			}
			if want := []string{"cmd/webhook/main.go", "cmd/webhook/jsoncodec/zz_generated.jsoncodec.go", "cmd/webhook/jsoncodec/zz_generated.jsoncodec.examplecomv1.go", "cmd/webhook/jsoncodec/zz_generated.jsoncodec.examplecomv2.go"}; tc.files > 0 && !slices.Equal(paths, want) {
				t.Errorf("main and codecs written to %v, want %v", paths, want)
			}
			// A main in a kubebuilder project may be the user's: never
			// deleted as stale.
			if owns := g.Owns(m); (tc.kb == nil) != (len(owns) > 0) {
				t.Errorf("owns %v", owns)
			}
		})
	}
}

// TestCodecIsSplitPerPackage generates the codecs of a kind whose two
// versions embed a type of a third package: one file holds With and the
// package comment, and each package's functions are in the file named after
// its alias, each name declared once. Two runs print the same bytes
// (files are rendered side by side), and Owns matches every file, and the
// file of a package no longer coded, but none of the user's.
func TestCodecIsSplitPerPackage(t *testing.T) {
	meta := types.NewPackage("example.com/proj/meta/v1", "v1")
	objectMeta := types.NewNamed(types.NewTypeName(token.NoPos, meta, "ObjectMeta", nil), nil, nil)
	objectMeta.SetUnderlying(types.NewStruct([]*types.Var{types.NewField(token.NoPos, meta, "Name", types.Typ[types.String], false)}, []string{`json:"name"`}))
	k := kind("example.com", "Widget", [2]string{"v1", "example.com/proj/api/v1"}, [2]string{"v2", "example.com/proj/api/v2"})
	for _, v := range k.Versions {
		pkg := v.Type.Obj().Pkg()
		spec := types.NewNamed(types.NewTypeName(token.NoPos, pkg, "WidgetSpec", nil), nil, nil)
		spec.SetUnderlying(types.NewStruct([]*types.Var{types.NewField(token.NoPos, pkg, "Size", types.Typ[types.Int32], false)}, []string{`json:"size"`}))
		v.Type.SetUnderlying(types.NewStruct([]*types.Var{
			types.NewField(token.NoPos, pkg, "ObjectMeta", objectMeta, false),
			types.NewField(token.NoPos, pkg, "Spec", spec, false),
		}, []string{`json:"metadata"`, `json:"spec"`}))
	}
	m := &model.Model{ImportPath: "example.com/proj", Project: "proj", Groups: []*model.Group{{Kinds: []*model.Kind{k}}}}
	g := Generator{Main: "cmd/webhook/main.go"}
	gen := func() []output.File {
		diags := diag.New(token.NewFileSet())
		files := g.Generate(m, diags)
		if diags.HasErrors() {
			t.Fatal(diags.Items())
		}
		return files
	}
	files := gen()
	if again := gen(); !slices.EqualFunc(files, again, func(a, b output.File) bool { return a.Path == b.Path && bytes.Equal(a.Content, b.Content) }) {
		t.Error("two runs print different files")
	}

	const dir = "cmd/webhook/jsoncodec/"
	var paths []string
	for _, f := range files {
		paths = append(paths, f.Path)
	}
	want := []string{"cmd/webhook/main.go", dir + "zz_generated.jsoncodec.go", dir + "zz_generated.jsoncodec.examplecomv1.go", dir + "zz_generated.jsoncodec.examplecomv2.go", dir + "zz_generated.jsoncodec.metav1.go"}
	if !slices.Equal(paths, want) {
		t.Fatalf("files %v, want %v", paths, want)
	}
	declared := map[string]string{}
	for _, f := range files[1:] {
		af, err := parser.ParseFile(token.NewFileSet(), f.Path, f.Content, parser.ParseComments)
		if err != nil {
			t.Fatalf("%s does not parse: %v\n%s", f.Path, err, f.Content)
		}
		main := f.Path == dir+"zz_generated.jsoncodec.go"
		if (af.Doc != nil) != main {
			t.Errorf("%s: package comment %v", f.Path, af.Doc != nil)
		}
		alias := strings.TrimSuffix(strings.TrimPrefix(f.Path, dir+"zz_generated.jsoncodec."), ".go")
		var names []string
		for _, d := range af.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok {
				continue
			}
			name := fd.Name.Name
			names = append(names, name)
			if other, dup := declared[name]; dup {
				t.Errorf("%s is declared in %s and %s", name, other, f.Path)
			}
			declared[name] = f.Path
			if main != (name == "With") || !main && !strings.HasPrefix(name, "decode_"+alias+"_") && !strings.HasPrefix(name, "encode_"+alias+"_") {
				t.Errorf("%s declares %s", f.Path, name)
			}
		}
		if len(names) == 0 {
			t.Errorf("%s declares nothing", f.Path)
		}
	}
	for _, name := range []string{"decode_examplecomv1_Widget", "encode_examplecomv2_WidgetSpec", "decode_metav1_ObjectMeta", "encode_metav1_ObjectMeta"} {
		if declared[name] == "" {
			t.Errorf("%s is declared nowhere (declared: %v)", name, declared)
		}
	}

	owned := func(p string) bool {
		for _, pattern := range g.Owns(m) {
			if ok, _ := filepath.Match(pattern, filepath.FromSlash(p)); ok {
				return true
			}
		}
		return false
	}
	for _, p := range append(paths, dir+"zz_generated.jsoncodec.examplecomv3.go") {
		if !owned(p) {
			t.Errorf("Owns (%v) does not cover %s", g.Owns(m), p)
		}
	}
	for _, p := range []string{dir + "codec_test.go", dir + "mine.go", "cmd/webhook/other.go"} {
		if owned(p) {
			t.Errorf("Owns (%v) covers the user's %s", g.Owns(m), p)
		}
	}
}

// The main registers certmanage only with ManageCerts: certmanage links
// client-go, which a webhook without --manage-certs must not carry.
func TestMainRegistersCertManagementOnlyWhenAsked(t *testing.T) {
	const call = "opts.ManageCerts(certmanage.BindFlags(flag.CommandLine))"
	for _, on := range []bool{false, true} {
		m := &model.Model{ImportPath: "example.com/proj", Project: "proj", Groups: []*model.Group{{Kinds: []*model.Kind{
			kind("example.com", "Widget", [2]string{"v1", "example.com/proj/api/v1"}, [2]string{"v2", "example.com/proj/api/v2"})}}}}
		diags := diag.New(token.NewFileSet())
		files := Generator{ManageCerts: on}.Generate(m, diags)
		if diags.HasErrors() || len(files) == 0 {
			t.Fatalf("%d files, diagnostics %v", len(files), diags.Items())
		}
		main := string(files[0].Content)
		if got := strings.Contains(main, call) && strings.Contains(main, strconv.Quote(certmanagePath)); got != on {
			t.Errorf("ManageCerts %v: the main registers certmanage: %v\n%s", on, got, main)
		}
		if !on && strings.Contains(main, certmanagePath) {
			t.Errorf("without ManageCerts the main imports %s:\n%s", certmanagePath, main)
		}
	}
}
