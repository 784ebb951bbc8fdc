package markers

import (
	"go/ast"
	"go/token"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"
	"sigs.k8s.io/controller-tools/pkg/loader"

	"github.com/crdforge/crdforge/internal/diag"
)

func loadFixture(t *testing.T) (*loader.Package, *token.FileSet) {
	t.Helper()
	fset := token.NewFileSet()
	roots, err := loader.LoadRootsWithConfig(&packages.Config{Dir: "testdata/assoc", Fset: fset})
	if err != nil || len(roots) != 1 {
		t.Fatalf("loading the fixture: %v (%d roots)", err, len(roots))
	}
	return roots[0], fset
}

func TestCollectAssociatesMarkersLikeControllerTools(t *testing.T) {
	regs, err := NewRegistries()
	if err != nil {
		t.Fatal(err)
	}
	pkg, fset := loadFixture(t)
	diags := diag.New(fset)
	set := regs.Collect(pkg, diags)

	at := func(pos token.Pos) string {
		p := fset.Position(pos)
		return p.String()[strings.LastIndex(p.String(), "/")+1:]
	}
	var pkgMarkers []string
	for _, v := range set.Package {
		pkgMarkers = append(pkgMarkers, v.Name+"@"+at(v.Pos))
	}
	if got, want := strings.Join(pkgMarkers, " "), "crdforge:webhook@assoc.go:1:4 crdforge:certmanager@assoc.go:6:4"; got != want {
		t.Errorf("package markers = %s, want %s", got, want)
	}
	if w := set.Package[0].Value.(Webhook); w.Namespace != "from-file-doc" {
		t.Errorf("package webhook value = %+v", w)
	}

	types := map[string][]string{}
	for ts, vals := range set.Types {
		for _, v := range vals {
			types[ts.Name.Name] = append(types[ts.Name.Name], v.Name+"@"+at(v.Pos))
		}
	}
	for name, want := range map[string]string{
		"Doc":     "crdforge:hub@assoc.go:13:4",
		"Loose":   "crdforge:conversion@assoc.go:17:4",
		"InBlock": "crdforge:webhook@assoc.go:29:5",
	} {
		if got := strings.Join(types[name], " "); got != want {
			t.Errorf("markers of %s = %q, want %q", name, got, want)
		}
	}
	if len(set.Fields) != 0 {
		t.Errorf("no field marker is valid here, got %d", len(set.Fields))
	}

	var doc *ast.TypeSpec
	for ts := range set.Types {
		if ts.Name.Name == "Doc" {
			doc = ts
		}
	}
	if got := at(set.Find(doc, "kubebuilder:storageversion")); got != "assoc.go:12:4" {
		t.Errorf("Find(kubebuilder:storageversion) = %s", got)
	}

	var errs []string
	for _, d := range diags.Items() {
		errs = append(errs, d.Format(d.Pos.Filename[:strings.LastIndex(d.Pos.Filename, "/")]))
	}
	want := []string{
		"assoc.go:21:5: marker +crdforge:hub describes a package or a type, but here it describes a field",
		"assoc.go:24:5: unknown marker +crdforge:nope\n  = help: `crdforge markers` lists them all",
		"assoc.go:34:5: marker +crdforge:whatever describes nothing here\n  = help: put it in the package's doc comment, above a type, or above a field",
	}
	if strings.Join(errs, "\n") != strings.Join(want, "\n") {
		t.Errorf("diagnostics:\n%s\nwant:\n%s", strings.Join(errs, "\n"), strings.Join(want, "\n"))
	}
}

func TestUnknownMarkerSuggestsTheClosestName(t *testing.T) {
	regs, _ := NewRegistries()
	if got := regs.suggest("crdforge:webhok"); got != "crdforge:webhook" {
		t.Errorf("suggest = %q", got)
	}
	if got := regs.suggest("crdforge:entirely-different"); got != "" {
		t.Errorf("suggest for a distant name = %q, want none", got)
	}
}

func TestMalformedArgumentsAreErrorsAtTheComment(t *testing.T) {
	regs, _ := NewRegistries()
	diags := diag.New(nil)
	for _, text := range []string{
		"+crdforge:webhook:port=abc",
		"+crdforge:conversion",             // strategy is required
		"+crdforge:certmanager:inject=yes", // no such argument
	} {
		if _, ok := regs.parse(Comment{Text: text}, 1 /* type */, diags); ok {
			t.Errorf("%s parsed without error", text)
		}
	}
	items := diags.Items()
	if len(items) != 3 {
		t.Fatalf("got %d diagnostics, want 3", len(items))
	}
	for _, d := range items {
		if !strings.HasPrefix(d.Msg, "invalid marker +crdforge:") {
			t.Errorf("message %q does not name the marker", d.Msg)
		}
	}
}
