// Command toolexecreport sums the CPU time of a log that hack/toolexec-log.sh
// wrote: by tool and Go toolchain, by project (the go command's directory,
// a test's temporary one named by its test), by module version, and the
// compiles of a package at one version and toolchain done more than once,
// which a build cache shared between those projects would not redo.
//
//	go run ./hack/toolexecreport /tmp/tools.log
package main

import (
	"bufio"
	"cmp"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
)

// run is one tool run of the log.
type run struct {
	tool, toolchain, pkg, module, project string
	cpu                                   time.Duration
}

var (
	// A module's directory in the module cache, wherever that is: a
	// path whose first element has a dot, then its version.
	moduleRe  = regexp.MustCompile(`/((?:[a-z0-9-]+\.)+[a-z]+/[^@]*@v[^/]+)/`)
	tempRe    = regexp.MustCompile(`^/tmp/(Test[^/]+)/[0-9]+(/[^/]+)?`)
	cpuRe     = regexp.MustCompile(`(\d+)m([\d.]+)s`)
	versionRe = regexp.MustCompile(`go1\.\d+(\.\d+)?`)
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: toolexecreport LOG")
		os.Exit(2)
	}
	runs, err := read(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	report("by tool and toolchain", runs, 10, func(r run) string { return r.tool + " " + r.toolchain })
	report("by project", runs, 25, func(r run) string { return r.project })
	report("by module version", runs, 25, func(r run) string { return r.module })
	again(runs, 20)
}

// read parses the log's lines: time, tool, CPU, package, source, directory.
func read(path string) ([]run, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer func() { _ = f.Close() }() // read only: nothing to lose
	var runs []run
	s := bufio.NewScanner(f)
	for s.Scan() {
		f := strings.Split(s.Text(), "\t")
		if len(f) != 6 {
			continue
		}
		r := run{tool: filepath.Base(f[1]), toolchain: "local", pkg: f[3], module: "-", project: f[5]}
		if v := versionRe.FindString(f[1]); v != "" {
			r.toolchain = v
		}
		for _, m := range cpuRe.FindAllStringSubmatch(f[2], -1) {
			// The pattern holds only digits: the parses cannot fail.
			minutes, _ := strconv.ParseFloat(m[1], 64)
			seconds, _ := strconv.ParseFloat(m[2], 64)
			r.cpu += time.Duration((minutes*60 + seconds) * float64(time.Second))
		}
		if m := moduleRe.FindStringSubmatch(f[4]); m != nil {
			r.module = m[1]
		}
		if m := tempRe.FindStringSubmatch(r.project); m != nil {
			r.project = m[1] + m[2] // t.TempDir's: the test's name, a number

		}
		runs = append(runs, r)
	}
	return runs, s.Err()
}

// report prints the n keys of the most CPU, with their runs.
func report(title string, runs []run, n int, key func(run) string) {
	cpu, count := map[string]time.Duration{}, map[string]int{}
	var total time.Duration
	for _, r := range runs {
		cpu[key(r)] += r.cpu
		count[key(r)]++
		total += r.cpu
	}
	fmt.Printf("== %s: %d runs, %.1f CPU-minutes\n", title, len(runs), total.Minutes())
	keys := make([]string, 0, len(cpu))
	for k := range cpu {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b string) int { return cmp.Compare(cpu[b], cpu[a]) })
	for _, k := range keys[:min(n, len(keys))] {
		fmt.Printf("%8.0fs %6d  %s\n", cpu[k].Seconds(), count[k], k)
	}
}

// again prints the modules whose packages were compiled more than once at
// one version with one toolchain, by the CPU of the compiles after the
// first, and the projects that did them.
func again(runs []run, n int) {
	type unit struct{ pkg, module, toolchain string }
	seen := map[unit]bool{}
	var repeats []run
	for _, r := range runs {
		if r.tool != "compile" || r.module == "-" {
			continue
		}
		u := unit{r.pkg, r.module, r.toolchain}
		if seen[u] {
			repeats = append(repeats, r)
		}
		seen[u] = true
	}
	report("compiled again: a package at a version it was compiled at before", repeats, n, func(r run) string { return r.module + " in " + r.project })
}
