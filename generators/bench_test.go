package generators

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/crdforge/crdforge/generators/internal/synth"
	"golang.org/x/tools/go/packages"
	"sigs.k8s.io/controller-tools/pkg/crd"
	"sigs.k8s.io/controller-tools/pkg/deepcopy"
	"sigs.k8s.io/controller-tools/pkg/genall"
)

// synthTree writes a synthetic tree of n kinds inside this module, so that
// its imports resolve, and removes it when the benchmark ends.
func synthTree(b *testing.B, n int) string {
	b.Helper()
	dir, err := filepath.Abs(filepath.Join("..", "testdata", "_bench", fmt.Sprintf("n%d", n)))
	if err != nil {
		b.Fatal(err)
	}
	os.RemoveAll(dir)
	if err := synth.Write(dir, n); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() {
		os.RemoveAll(dir)
		os.Remove(filepath.Dir(dir))
	})
	return dir
}

// BenchmarkGenerate compares, on the same synthetic trees, crdforge's CRD and
// deepcopy generation with controller-gen's `object crd paths=./...`, run in
// process through controller-tools' genall exactly as controller-gen's main
// runs it, with output discarded. Both load, type-check and generate from
// scratch in every iteration; neither writes files.
func BenchmarkGenerate(b *testing.B) {
	for _, n := range []int{10, 100, 400} {
		dir := synthTree(b, n)
		b.Run(fmt.Sprintf("kinds=%d/tool=crdforge", n), func(b *testing.B) {
			for b.Loop() {
				res, err := Generate(Config{Dir: dir, Only: []string{"crd", "deepcopy"}})
				if err != nil {
					b.Fatal(err)
				}
				if res.Diags.HasErrors() {
					b.Fatal(res.Diags.Items()[0].Format(dir))
				}
				if want := n + 3*((n+synth.KindsPerGroup-1)/synth.KindsPerGroup); len(res.Files) != want {
					b.Fatalf("%d files, want %d", len(res.Files), want)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n)/1e6, "ms/kind")
		})
		b.Run(fmt.Sprintf("kinds=%d/tool=controller-gen", n), func(b *testing.B) {
			for b.Loop() {
				var crdGen, objGen genall.Generator = crd.Generator{}, deepcopy.Generator{}
				rt, err := genall.Generators{&objGen, &crdGen}.ForRootsWithConfig(&packages.Config{Dir: dir}, "./...")
				if err != nil {
					b.Fatal(err)
				}
				rt.OutputRules = genall.OutputRules{Default: genall.OutputToNothing}
				if failed := rt.Run(); failed {
					b.Fatal("controller-gen reported errors")
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n)/1e6, "ms/kind")
		})
	}
}
