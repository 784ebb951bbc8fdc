package webhook

import (
	"bytes"
	"flag"
	"go/ast"
	"go/types"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/dave/jennifer/jen"
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
	k := shapesKind(t)
	dir := filepath.Join("testdata", "shapes", "jsoncodec")
	files := codecFiles(shapesPath+"/jsoncodec", codecPkg, []*model.Kind{k})
	got := map[string][]byte{}
	for _, cf := range files {
		f, err := cf.Print()
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		if err := f.Render(&buf); err != nil {
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

// shapesKind loads testdata/shapes and returns its Root as a kind of one
// version that converts through the webhook.
func shapesKind(t *testing.T) *model.Kind {
	t.Helper()
	pkgs, err := packages.Load(&packages.Config{Mode: packages.NeedName | packages.NeedTypes | packages.NeedTypesInfo | packages.NeedSyntax}, "./testdata/shapes")
	if err != nil || packages.PrintErrors(pkgs) > 0 {
		t.Fatalf("loading testdata/shapes: %v", err)
	}
	pkg := pkgs[0]
	root := pkg.Types.Scope().Lookup("Root").Type().(*types.Named)
	k := &model.Kind{Group: "shapes.example.com", Name: "Root", Conversion: model.Conversion{Strategy: markers.StrategyWebhook}}
	k.Versions = []*model.Version{{Kind: k, Name: "v1", Package: &loader.Package{Package: pkg}, Spec: &ast.TypeSpec{Name: ast.NewIdent("Root")}, Type: root}}
	k.Hub = k.Versions[0]
	return k
}

// TestCodecFilesHoldNoCodeUntilPrinted: codecFiles returns the codec's
// plan, and a file's code is built only when the file is printed, so that
// the generator holds no more files' code at once than it formats. Holding
// every file's code until all were formatted was most of the webhook
// generator's memory on large API groups (issue 56): what codecFiles
// returns must stay small beside the code its files print.
func TestCodecFilesHoldNoCodeUntilPrinted(t *testing.T) {
	k := shapesKind(t)
	before := liveHeap()
	files := codecFiles(shapesPath+"/jsoncodec", codecPkg, []*model.Kind{k})
	planned := liveHeap() - before
	var printed []*jen.File
	for _, cf := range files {
		f, err := cf.Print()
		if err != nil {
			t.Fatal(err)
		}
		printed = append(printed, f)
	}
	code := liveHeap() - before - planned
	runtime.KeepAlive(k) // the loaded package, which neither figure is
	runtime.KeepAlive(files)
	runtime.KeepAlive(printed)
	t.Logf("codecFiles holds %d KiB; its files' code, once printed, %d KiB", planned>>10, code>>10)
	if planned*2 > code {
		t.Errorf("codecFiles holds %d KiB before any file is printed, more than half of the %d KiB its files' code takes: it builds code ahead of printing", planned>>10, code>>10)
	}
}

// liveHeap is the heap's live bytes after a collection.
func liveHeap() int64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return int64(ms.HeapAlloc)
}
