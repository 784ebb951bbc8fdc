package pipeline

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"
	"sigs.k8s.io/controller-tools/pkg/crd"
	"sigs.k8s.io/controller-tools/pkg/deepcopy"
	"sigs.k8s.io/controller-tools/pkg/genall"

	"github.com/crdforge/crdforge/internal/passrecord"
	"github.com/crdforge/crdforge/internal/testdata/benchcpu"
	"github.com/crdforge/crdforge/internal/testdata/synth"
)

// synthTree writes a synthetic tree of n kinds inside this module, so that
// its imports resolve, and removes it when the benchmark ends.
func synthTree(b *testing.B, n int, variant, conversionGenImportPath string) string {
	b.Helper()
	name := fmt.Sprintf("n%d", n)
	if variant != "" {
		name += "-" + variant
	}
	dir, err := filepath.Abs(filepath.Join("..", "..", "testdata", "_bench", name))
	if err != nil {
		b.Fatal(err)
	}
	if err := os.RemoveAll(dir); err != nil {
		b.Fatal(err)
	}
	if err := synth.WriteWithConversionGenTags(dir, n, conversionGenImportPath); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() {
		if err := os.RemoveAll(dir); err != nil {
			b.Error(err)
		}
		// testdata/_bench goes too, once the last tree in it is gone.
		parent := filepath.Dir(dir)
		if rest, err := os.ReadDir(parent); err == nil && len(rest) == 0 {
			if err := os.Remove(parent); err != nil {
				b.Error(err)
			}
		}
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
		dir := synthTree(b, n, "", "")
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

// BenchmarkGenerateCRD compares CRD generation alone: crdforge's
// `generate --only crd` (which also runs the API server's own validation of
// every CRD) with controller-gen's `crd paths=./...`, in process, on the same
// trees, writing nothing. crdforge runs twice: with no record of earlier
// validations (tool=crdforge: every CRD validated, a first run), and with
// every CRD recorded as passed by an earlier run (tool=crdforge-recorded:
// `make manifests` again on unchanged types, as kubebuilder's Makefile does
// before every build and test; the CLI keeps the record in the user's cache
// directory).
func BenchmarkGenerateCRD(b *testing.B) {
	for _, n := range []int{10, 100, 400} {
		dir := synthTree(b, n, "", "")
		crdforge := func(b *testing.B, cache *passrecord.Record) {
			res, err := Generate(Config{Dir: dir, Only: []string{"crd"}, ValidationRecord: cache})
			if err != nil {
				b.Fatal(err)
			}
			if res.Diags.HasErrors() {
				b.Fatal(res.Diags.Items()[0].Format(dir))
			}
			if len(res.Files) != n {
				b.Fatalf("%d files, want %d", len(res.Files), n)
			}
		}
		b.Run(fmt.Sprintf("kinds=%d/tool=crdforge", n), func(b *testing.B) {
			defer benchcpu.Report(b)()
			for b.Loop() {
				crdforge(b, nil)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n)/1e6, "ms/kind")
		})
		b.Run(fmt.Sprintf("kinds=%d/tool=crdforge-recorded", n), func(b *testing.B) {
			cache, err := passrecord.Open(b.TempDir(), "crd-validation")
			if err != nil {
				b.Fatal(err)
			}
			crdforge(b, cache) // the earlier run, which records every CRD
			defer benchcpu.Report(b)()
			for b.Loop() {
				crdforge(b, cache)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n)/1e6, "ms/kind")
		})
		b.Run(fmt.Sprintf("kinds=%d/tool=controller-gen", n), func(b *testing.B) {
			defer benchcpu.Report(b)()
			for b.Loop() {
				var crdGen genall.Generator = crd.Generator{}
				rt, err := genall.Generators{&crdGen}.ForRootsWithConfig(&packages.Config{Dir: dir}, "./...")
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

// tools builds crdforge from this module and installs controller-gen and
// conversion-gen at the versions this module uses, into a temporary GOBIN.
func tools(b *testing.B) (crdforge, controllerGen, conversionGen string) {
	b.Helper()
	bin := b.TempDir()
	run := func(args ...string) {
		cmd := exec.Command("go", args...)
		cmd.Env = append(os.Environ(), "GOBIN="+bin)
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("go %v: %v\n%s", args, err, out)
		}
	}
	run("build", "-o", filepath.Join(bin, "crdforge"), "github.com/crdforge/crdforge/cmd/crdforge")
	run("install", "sigs.k8s.io/controller-tools/cmd/controller-gen@"+moduleVersion(b, "sigs.k8s.io/controller-tools"))
	run("install", "k8s.io/code-generator/cmd/conversion-gen@"+moduleVersion(b, "k8s.io/apimachinery"))
	return filepath.Join(bin, "crdforge"), filepath.Join(bin, "controller-gen"), filepath.Join(bin, "conversion-gen")
}

// removeGenerated deletes what crdforge generated in a synthetic tree.
func removeGenerated(b *testing.B, dir string) {
	b.Helper()
	for _, sub := range []string{"config", "cmd"} {
		if err := os.RemoveAll(filepath.Join(dir, sub)); err != nil {
			b.Fatal(err)
		}
	}
	files, _ := filepath.Glob(filepath.Join(dir, "apis", "*", "*", "zz_generated.*"))
	for _, f := range files {
		if err := os.Remove(f); err != nil {
			b.Fatal(err)
		}
	}
}

func moduleVersion(b *testing.B, path string) string {
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Version}}", path).Output()
	if err != nil {
		b.Fatalf("go list -m %s: %v", path, err)
	}
	return strings.TrimSpace(string(out))
}

// BenchmarkGenerateCRDProcess compares CRD generation as users run it, as
// processes: `crdforge generate --only crd ./...` with no validation record
// (CRDFORGE_CACHE=off: every CRD through the API server's validation, as on
// a first run) against `controller-gen crd paths=./...`. Unlike
// BenchmarkGenerateCRD, every run pays its process's one-time costs (the
// CEL environment, a fresh heap). cpu-ms/op is the processes' user and
// system time.
func BenchmarkGenerateCRDProcess(b *testing.B) {
	crdforge, controllerGen, _ := tools(b)
	for _, n := range []int{100, 400} {
		dir := synthTree(b, n, "process", "")
		out := b.TempDir()
		run := func(b *testing.B, env []string, name string, args ...string) {
			cmd := exec.Command(name, args...)
			cmd.Dir = dir
			cmd.Env = append(os.Environ(), env...)
			if o, err := cmd.CombinedOutput(); err != nil {
				b.Fatalf("%s %v: %v\n%.2000s", filepath.Base(name), args, err, o)
			}
		}
		b.Run(fmt.Sprintf("kinds=%d/tool=crdforge", n), func(b *testing.B) {
			defer benchcpu.Report(b)()
			for b.Loop() {
				b.StopTimer()
				removeGenerated(b, dir)
				b.StartTimer()
				run(b, []string{"CRDFORGE_CACHE=off"}, crdforge, "generate", "--only", "crd", "./...")
			}
		})
		b.Run(fmt.Sprintf("kinds=%d/tool=controller-gen", n), func(b *testing.B) {
			defer benchcpu.Report(b)()
			for b.Loop() {
				run(b, nil, controllerGen, "crd", "paths=./...", "output:crd:dir="+out)
			}
		})
	}
}

// BenchmarkGenerateAll compares, as processes the way users run them, the
// full `crdforge generate ./...` (CRDs, deepcopy, conversions with their
// tests, the webhook main and its deployment: one load) with
// `controller-gen object crd paths=./...` followed by `conversion-gen` on
// the same synthetic trees (two loads). Each tool works in its own copy of
// the tree; conversion-gen's copy carries its +k8s:conversion-gen tags.
func BenchmarkGenerateAll(b *testing.B) {
	crdforge, controllerGen, conversionGen := tools(b)
	header := filepath.Join(b.TempDir(), "header.txt")
	if err := os.WriteFile(header, nil, 0o644); err != nil {
		b.Fatal(err)
	}
	exe := func(b *testing.B, dir, name string, args ...string) {
		cmd := exec.Command(name, args...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("%s %v: %v\n%.2000s", filepath.Base(name), args, err, out)
		}
	}
	for _, n := range []int{10, 100, 400} {
		ours := synthTree(b, n, "crdforge", "")
		theirs := synthTree(b, n, "peers", "github.com/crdforge/crdforge/testdata/_bench/"+fmt.Sprintf("n%d-peers", n))
		b.Run(fmt.Sprintf("kinds=%d/tool=crdforge", n), func(b *testing.B) {
			for b.Loop() {
				// crdforge writes only files whose bytes change; the
				// others rewrite everything. Start each run from a tree
				// without generated files, so that crdforge writes all.
				b.StopTimer()
				removeGenerated(b, ours)
				b.StartTimer()
				exe(b, ours, crdforge, "generate", "./...")
			}
		})
		b.Run(fmt.Sprintf("kinds=%d/tool=controller-gen+conversion-gen", n), func(b *testing.B) {
			for b.Loop() {
				exe(b, theirs, controllerGen, "object", "crd", "paths=./...")
				exe(b, theirs, conversionGen, "--go-header-file", header, "--output-file", "zz_generated.conversion.go", "./apis/...")
			}
		})
	}
}

// BenchmarkGenerateNoop measures `crdforge generate` run again on a tree
// where nothing changed since the last run (`make manifests` before every
// build), as a process: the run hashes its inputs and outputs, finds them as
// recorded (internal/runcache) and writes nothing. The peer is
// `controller-gen object crd` on its own copy of the tree, which loads and
// generates in full every time. The crdforge run reports x-controller-gen,
// its time as a fraction of controller-gen's. The trees: synthetic ones of
// 100 and 400 kinds, and, with CRDFORGE_BENCH_REAL=1, two real groups
// fetched through the module proxy (noopRealTrees).
func BenchmarkGenerateNoop(b *testing.B) {
	crdforge, controllerGen, _ := tools(b)
	trees := []noopTree{}
	for _, n := range []int{100, 400} {
		trees = append(trees, noopTree{fmt.Sprintf("kinds=%d", n), synthTree(b, n, "noop", ""), synthTree(b, n, "noop-peer", ""), "./..."})
	}
	if os.Getenv("CRDFORGE_BENCH_REAL") == "1" {
		trees = append(trees, noopRealTrees(b)...)
	}
	for _, t := range trees {
		env := []string{"CRDFORGE_CACHE=" + b.TempDir()}
		gen := []string{"generate", "--only", "crd,deepcopy,conversion", t.pattern}
		var peer float64 // controller-gen's ns/op
		b.Run(t.name+"/tool=controller-gen", func(b *testing.B) {
			for b.Loop() {
				runIn(b, t.theirs, nil, controllerGen, "object", "crd", "paths="+t.pattern, "output:crd:artifacts:config=config/crd/bases")
			}
			peer = float64(b.Elapsed().Nanoseconds()) / float64(b.N)
		})
		b.Run(t.name+"/tool=crdforge-noop", func(b *testing.B) {
			runIn(b, t.ours, env, crdforge, gen...) // the run that leaves the tree up to date
			if out := runIn(b, t.ours, env, crdforge, gen...); !strings.Contains(out, "up to date") {
				b.Fatalf("the second run is not up to date:\n%.2000s", out)
			}
			for b.Loop() {
				runIn(b, t.ours, env, crdforge, gen...)
			}
			if peer > 0 {
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/peer, "x-controller-gen")
			}
		})
	}
}

// noopTree is a tree BenchmarkGenerateNoop runs on: ours for crdforge,
// theirs, a copy, for controller-gen, and the package pattern.
type noopTree struct{ name, ours, theirs, pattern string }

// noopRealTrees fetches two real groups at exact versions, each copied
// twice: cluster-api-provider-ibmcloud v0.11.0 (./...) and
// opentelemetry-operator v0.120.0 (./apis/...), the trees hack/steady-runs.sh
// measures. OpenTelemetry's module is not in the checksum database the
// proxy serves, so it is fetched unchecked.
func noopRealTrees(b *testing.B) []noopTree {
	env := []string{"GONOSUMDB=github.com/open-telemetry", "GOFLAGS=-mod=mod"}
	var trees []noopTree
	for _, r := range []struct{ name, module, pattern string }{
		{"ibmcloud", "sigs.k8s.io/cluster-api-provider-ibmcloud@v0.11.0", "./..."},
		{"otel", "github.com/open-telemetry/opentelemetry-operator@v0.120.0", "./apis/..."},
	} {
		var dl struct{ Dir string }
		if err := json.Unmarshal([]byte(runIn(b, ".", env, "go", "mod", "download", "-json", r.module)), &dl); err != nil {
			b.Fatal(err)
		}
		t := noopTree{name: "tree=" + r.name, pattern: r.pattern}
		for _, dst := range []*string{&t.ours, &t.theirs} {
			*dst = filepath.Join(b.TempDir(), r.name)
			runIn(b, ".", nil, "cp", "-r", dl.Dir, *dst)
			runIn(b, ".", nil, "chmod", "-R", "u+w", *dst)
			runIn(b, *dst, env, "go", "list", r.pattern)
		}
		trees = append(trees, t)
	}
	return trees
}

// runIn runs name with args in dir, with env added, and returns its output;
// a failure fails the benchmark.
func runIn(b *testing.B, dir string, env []string, name string, args ...string) string {
	b.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		b.Fatalf("%s %v: %v\n%.2000s", filepath.Base(name), args, err, out)
	}
	return string(out)
}
