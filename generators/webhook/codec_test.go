package webhook

import (
	"bytes"
	"flag"
	"go/ast"
	"go/format"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/crdforge/crdforge/generators/model"
	"github.com/crdforge/crdforge/markers"
	"go/types"
	"golang.org/x/tools/go/packages"
	"sigs.k8s.io/controller-tools/pkg/loader"
)

var update = flag.Bool("update", false, "rewrite testdata/shapes/jsoncodec's generated codec")

const shapesPath = "github.com/crdforge/crdforge/generators/webhook/testdata/shapes"

// TestCodecOfEveryShape generates the codec of testdata/shapes' Root, which
// has a field of every shape, compares it with the one checked in (-update
// rewrites it), and runs the semantics table in
// testdata/shapes/jsoncodec/shapes_test.go through it.
func TestCodecOfEveryShape(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go command")
	}
	pkgs, err := packages.Load(&packages.Config{Mode: packages.NeedName | packages.NeedTypes | packages.NeedTypesInfo | packages.NeedSyntax}, "./testdata/shapes")
	if err != nil || packages.PrintErrors(pkgs) > 0 {
		t.Fatalf("loading testdata/shapes: %v", err)
	}
	pkg := pkgs[0]
	root := pkg.Types.Scope().Lookup("Root").Type().(*types.Named)
	k := &model.Kind{Group: "shapes.example.com", Name: "Root", Conversion: model.Conversion{Strategy: markers.StrategyWebhook}}
	k.Versions = []*model.Version{{Kind: k, Name: "v1", Package: &loader.Package{Package: pkg}, Spec: &ast.TypeSpec{Name: ast.NewIdent("Root")}, Type: root}}
	k.Hub = k.Versions[0]
	var buf bytes.Buffer
	if err := codecFile(shapesPath+"/jsoncodec", codecPkg, []*model.Kind{k}).Render(&buf); err != nil {
		t.Fatal(err)
	}
	got, err := format.Source(buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	golden := filepath.Join("testdata", "shapes", "jsoncodec", "zz_generated.jsoncodec.go")
	if *update {
		if err := os.WriteFile(golden, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil || !bytes.Equal(got, want) {
		t.Fatalf("%s is not what the generator prints (go test ./generators/webhook -run TestCodecOfEveryShape -update): %v", golden, err)
	}
	cmd := exec.Command("go", "test", "-count=1", "./testdata/shapes/jsoncodec")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("the semantics table through the generated codec failed: %v\n%s", err, out)
	}
}
