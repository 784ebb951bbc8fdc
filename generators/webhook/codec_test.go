package webhook

import (
	"bytes"
	"flag"
	"go/ast"
	"go/types"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/packages"
	"sigs.k8s.io/controller-tools/pkg/loader"

	"github.com/crdforge/crdforge/generators/model"
	"github.com/crdforge/crdforge/markers"
)

var update = flag.Bool("update", false, "rewrite testdata/shapes/jsoncodec's generated codec")

const shapesPath = "github.com/crdforge/crdforge/generators/webhook/testdata/shapes"

// TestCodecOfEveryShape generates the codec of testdata/shapes' Root, which
// has a field of every shape, compares it with the one checked in (-update
// rewrites it), vets it, and runs the semantics table in
// testdata/shapes/jsoncodec/shapes_test.go through it.
func TestCodecOfEveryShape(t *testing.T) {
	pkgs, err := packages.Load(&packages.Config{Mode: packages.NeedName | packages.NeedTypes | packages.NeedTypesInfo | packages.NeedSyntax}, "./testdata/shapes")
	if err != nil || packages.PrintErrors(pkgs) > 0 {
		t.Fatalf("loading testdata/shapes: %v", err)
	}
	pkg := pkgs[0]
	root := pkg.Types.Scope().Lookup("Root").Type().(*types.Named)
	k := &model.Kind{Group: "shapes.example.com", Name: "Root", Conversion: model.Conversion{Strategy: markers.StrategyWebhook}}
	k.Versions = []*model.Version{{Kind: k, Name: "v1", Package: &loader.Package{Package: pkg}, Spec: &ast.TypeSpec{Name: ast.NewIdent("Root")}, Type: root}}
	k.Hub = k.Versions[0]
	dir := filepath.Join("testdata", "shapes", "jsoncodec")
	files := codecFiles(shapesPath+"/jsoncodec", codecPkg, []*model.Kind{k})
	got := map[string][]byte{}
	for _, cf := range files {
		var buf bytes.Buffer
		if err := cf.File.Render(&buf); err != nil {
			t.Fatal(err)
		}
		got[cf.Name] = buf.Bytes()
	}
	old, err := filepath.Glob(filepath.Join(dir, "zz_generated.jsoncodec*.go"))
	if err != nil {
		t.Fatal(err)
	}
	if *update {
		for _, p := range old {
			if err := os.Remove(p); err != nil {
				t.Fatal(err)
			}
		}
		for name, content := range got {
			if err := os.WriteFile(filepath.Join(dir, name), content, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	want := map[string][]byte{}
	old, _ = filepath.Glob(filepath.Join(dir, "zz_generated.jsoncodec*.go"))
	for _, p := range old {
		if want[filepath.Base(p)], err = os.ReadFile(p); err != nil {
			t.Fatal(err)
		}
	}
	if len(got) != len(want) {
		t.Errorf("the generator prints %d files, %s holds %d (go test ./generators/webhook -run TestCodecOfEveryShape -update)", len(got), dir, len(want))
	}
	for name, content := range got {
		if !bytes.Equal(content, want[name]) {
			t.Errorf("%s is not what the generator prints (go test ./generators/webhook -run TestCodecOfEveryShape -update)", filepath.Join(dir, name))
		}
	}
	if t.Failed() {
		t.FailNow()
	}
	// go test runs only a few of vet's analyzers, and users vet the
	// generated codec with all of them. shapes.go repeats a JSON tag on
	// purpose (Conflicted), so structtag, which the generated code has no
	// use for, is off.
	cmd := exec.Command("go", "vet", "-structtag=false", "./testdata/shapes/...")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go vet of the generated codec failed: %v\n%s", err, out)
	}
	cmd = exec.Command("go", "test", "-count=1", "./testdata/shapes/jsoncodec")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("the semantics table through the generated codec failed: %v\n%s", err, out)
	}
}
