package pipeline

import (
	"bytes"
	"fmt"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/crdforge/crdforge/internal/output"
	"github.com/crdforge/crdforge/internal/testdata/synth"
)

// BenchmarkScale measures issue 56's question, whether crdforge generate
// grows no faster than controller-gen with the size of an API group: on
// synthetic groups of 10, 15, 50 and 200 kinds in three versions (600 too with
// CRDFORGE_BENCH_600=1), each iteration runs a first full `crdforge
// generate ./...` (every generator, CRDFORGE_CACHE=off, a tree without
// generated files) and `controller-gen object crd paths=./...` on its own
// copy, one after the other, as processes. It reports the medians of each
// tool's wall time, CPU time and peak RSS (the process's and its
// children's, the go list the loads run, from wait4's rusage) and their
// ratios, which hold on
// a loaded machine where the figures do not, crdforge's generated lines
// per kind and version by generator, and what building the generated
// webhook costs (reportWebhookBuild). Run it with -benchtime 3x. With
// CRDFORGE_BENCH_BASE naming another crdforge binary (an earlier commit's),
// each iteration runs that one too, on a copy of its own, and its figures
// are reported beside this commit's, as crdforge-base.
func BenchmarkScale(b *testing.B) {
	crdforge, controllerGen := scaleTools(b)
	base := os.Getenv("CRDFORGE_BENCH_BASE")
	sizes := []int{10, 15, 50, 200}
	if os.Getenv("CRDFORGE_BENCH_600") == "1" {
		sizes = append(sizes, 600)
	}
	generate := []string{"generate", "./..."}
	env := []string{"CRDFORGE_CACHE=off"}
	for _, n := range sizes {
		ours := synthTree(b, n, "scale", "")
		theirs := synthTree(b, n, "scale-peer", "")
		var before string
		if base != "" {
			before = synthTree(b, n, "scale-base", "")
		}
		b.Run(fmt.Sprintf("kinds=%d", n), func(b *testing.B) {
			var us, them, was []usage
			for b.Loop() {
				b.StopTimer()
				for _, dir := range []string{ours, theirs, before} {
					if dir != "" {
						removeGenerated(b, dir)
					}
				}
				b.StartTimer()
				us = append(us, measure(b, ours, env, crdforge, generate...))
				them = append(them, measure(b, theirs, nil, controllerGen, "object", "crd", "paths=./..."))
				if base != "" {
					was = append(was, measure(b, before, env, base, generate...))
				}
			}
			reportVersus(b, "crdforge", us, them)
			if base != "" {
				reportVersus(b, "crdforge-base", was, them)
			}
			reportLines(b, treeLines(b, ours), n)
			reportWebhookBuild(b, ours, crdforge)
		})
	}
}

// scaleTools builds crdforge and the benchmark's controller-gen (its main
// with the object and crd generators, internal/testdata/controllergencmd)
// from this module.
func scaleTools(b *testing.B) (crdforge, controllerGen string) {
	b.Helper()
	bin := b.TempDir()
	crdforge, controllerGen = filepath.Join(bin, "crdforge"), filepath.Join(bin, "controller-gen")
	runIn(b, ".", nil, "go", "build", "-o", crdforge, "github.com/crdforge/crdforge/cmd/crdforge")
	runIn(b, ".", nil, "go", "build", "-o", controllerGen, "github.com/crdforge/crdforge/internal/testdata/controllergencmd")
	return crdforge, controllerGen
}

// usage is what one process run cost: its wall time, and the CPU time
// (user and system) and peak resident set of it and of the children it
// waited for. On a loaded machine the CPU time moves less than the wall
// time.
type usage struct {
	wall, cpu time.Duration
	peakKB    int64
}

// measure runs name with args in dir, with env added, and returns its cost;
// a failure fails the benchmark.
func measure(b *testing.B, dir string, env []string, name string, args ...string) usage {
	b.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	start := time.Now()
	if err := cmd.Run(); err != nil {
		b.Fatalf("%s %v: %v\n%.2000s", filepath.Base(name), args, err, out.Bytes())
	}
	wall := time.Since(start)
	// On Linux, wait4's ru_maxrss is the larger of the process's own peak
	// and its waited-for descendants', in KiB; its times take them in.
	ru := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	return usage{wall: wall, cpu: cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime(), peakKB: ru.Maxrss}
}

// reportVersus reports the medians of tool's runs and of controller-gen's,
// and tool's as a multiple of controller-gen's.
func reportVersus(b *testing.B, tool string, us, them []usage) {
	ms := func(u usage) float64 { return u.wall.Seconds() * 1e3 }
	cpu := func(u usage) float64 { return u.cpu.Seconds() * 1e3 }
	mib := func(u usage) float64 { return float64(u.peakKB) / 1024 }
	b.ReportMetric(median(us, ms), tool+"-ms")
	b.ReportMetric(median(them, ms), "controller-gen-ms")
	b.ReportMetric(median(us, ms)/median(them, ms), tool+"-x-time")
	b.ReportMetric(median(us, cpu), tool+"-cpu-ms")
	b.ReportMetric(median(them, cpu), "controller-gen-cpu-ms")
	b.ReportMetric(median(us, cpu)/median(them, cpu), tool+"-x-cpu")
	b.ReportMetric(median(us, mib), tool+"-MiB")
	b.ReportMetric(median(them, mib), "controller-gen-MiB")
	b.ReportMetric(median(us, mib)/median(them, mib), tool+"-x-rss")
}

func median(us []usage, of func(usage) float64) float64 {
	xs := make([]float64, len(us))
	for i, u := range us {
		xs[i] = of(u)
	}
	slices.Sort(xs)
	return xs[len(xs)/2]
}

// reportLines reports the generated lines of each generator per kind and
// version, and the total.
func reportLines(b *testing.B, lines map[string]int, kinds int) {
	total := 0
	for _, gen := range lineGenerators {
		b.ReportMetric(float64(lines[gen])/float64(kinds*len(synth.Versions)), gen+"-lines/kv")
	}
	for _, l := range lines {
		total += l
	}
	b.ReportMetric(float64(total), "generated-lines")
}

// reportWebhookBuild builds the webhook crdforge generated in dir (with the
// codec --webhook-codec=auto chose), once to put the API packages in the
// build cache (the operator's own build compiles them anyway), then again
// with the main and its codec changed (markChanged): what the webhook
// costs beside the API. It reports that build's wall and CPU time, its
// peak RSS (its largest process's, the compiler of the largest package)
// and the binary's size; then it generates the main with the reflection
// codec, builds it, and reports the first binary's size as a multiple of
// that one's.
func reportWebhookBuild(b *testing.B, dir, crdforge string) {
	b.Helper()
	bin := filepath.Join(b.TempDir(), "webhook")
	measure(b, dir, nil, "go", "build", "-o", bin, "./cmd/webhook")
	markChanged(b, filepath.Join(dir, "cmd", "webhook"))
	built := measure(b, dir, nil, "go", "build", "-o", bin, "./cmd/webhook")
	size := fileSize(b, bin)
	measure(b, dir, []string{"CRDFORGE_CACHE=off"}, crdforge, "generate", "--only", "webhook", "--webhook-codec=reflect", "./...")
	measure(b, dir, nil, "go", "build", "-o", bin, "./cmd/webhook")
	b.ReportMetric(built.wall.Seconds(), "webhook-build-s")
	b.ReportMetric(built.cpu.Seconds(), "webhook-build-cpu-s")
	b.ReportMetric(float64(built.peakKB)/1024, "webhook-build-MiB")
	b.ReportMetric(size/1e6, "webhook-MB")
	b.ReportMetric(size/fileSize(b, bin), "webhook-x-reflect")
}

// markChanged adds a file with a new constant to each Go package under
// dir, so that go build compiles them again rather than finding them in
// the build cache.
func markChanged(b *testing.B, dir string) {
	b.Helper()
	nonce := strconv.FormatInt(time.Now().UnixNano(), 10)
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		gofiles, _ := filepath.Glob(filepath.Join(path, "*.go"))
		if len(gofiles) == 0 {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), gofiles[0], nil, parser.PackageClauseOnly)
		if err != nil {
			return err
		}
		src := "package " + f.Name.Name + "\n\nconst benchNonce = " + nonce + "\n"
		return os.WriteFile(filepath.Join(path, "zz_bench_nonce.go"), []byte(src), 0o644)
	})
	if err != nil {
		b.Fatal(err)
	}
}

func fileSize(b *testing.B, path string) float64 {
	b.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	return float64(fi.Size())
}

// lineGenerators are the generators whose output grows with every kind and
// version, as generatedBy names them.
var lineGenerators = []string{"codec", "conversion", "conversion-test", "deepcopy", "crd"}

// generatedBy names the generator that wrote path (slash-separated, relative
// to the tree), "other" for the rest: the webhook's main, its deployment.
func generatedBy(path string) string {
	base := filepath.Base(path)
	switch {
	case strings.Contains(path, "/jsoncodec/"):
		return "codec"
	case base == "zz_generated.conversion.go":
		return "conversion"
	case base == "zz_generated.conversion_test.go":
		return "conversion-test"
	case base == "zz_generated.deepcopy.go":
		return "deepcopy"
	case strings.HasPrefix(path, "config/crd/"):
		return "crd"
	}
	return "other"
}

// treeLines counts the lines of what crdforge generated in dir, by
// generator.
func treeLines(b *testing.B, dir string) map[string]int {
	b.Helper()
	var files []output.File
	for _, pattern := range []string{"apis/*/*/zz_generated.*", "cmd/webhook/*/*.go", "cmd/webhook/*.go", "config/crd/*/*.yaml"} {
		names, err := filepath.Glob(filepath.Join(dir, pattern))
		if err != nil {
			b.Fatal(err)
		}
		for _, name := range names {
			content, err := os.ReadFile(name)
			if err != nil {
				b.Fatal(err)
			}
			rel, _ := filepath.Rel(dir, name)
			files = append(files, output.File{Path: filepath.ToSlash(rel), Content: content})
		}
	}
	return linesByGenerator(files)
}

// linesByGenerator counts the lines of files by the generator that wrote
// them.
func linesByGenerator(files []output.File) map[string]int {
	lines := map[string]int{}
	for _, f := range files {
		lines[generatedBy(f.Path)] += bytes.Count(f.Content, []byte("\n"))
	}
	return lines
}

// BenchmarkScaleInProcess runs what BenchmarkScale's crdforge process runs,
// every generator on the synthetic group, in this process and writing
// nothing: the one to profile (-cpuprofile, -memprofile) when
// BenchmarkScale's figures move.
func BenchmarkScaleInProcess(b *testing.B) {
	for _, n := range []int{10, 50, 200} {
		dir := synthTree(b, n, "scale-inprocess", "")
		b.Run(fmt.Sprintf("kinds=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				res, err := Generate(Config{Dir: dir})
				if err != nil {
					b.Fatal(err)
				}
				if res.Diags.HasErrors() {
					b.Fatal(res.Diags.Items()[0].Format(dir))
				}
			}
		})
	}
}
