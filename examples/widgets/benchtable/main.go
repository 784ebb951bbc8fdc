// Command benchtable prints BENCHMARKS.md's table of the conversion webhook
// handlers from the output of BenchmarkConversionReview run by a "before"
// and an "after" test binary (hack/webhook-benchtable.sh runs them, taking
// turns): per row, the median time per object of each handler, crdforge's
// throughput against controller-runtime's and its time against the copy
// floor's, with the goals each ratio is held to (issue 33).
//
//	go run ./examples/widgets/benchtable before.txt after.txt
//
// Peers (controller-runtime, floor-copy, floor, and floor-generated where
// the after tree has generated codecs) are taken from the after file;
// crdforge from both.
package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// row is one row of the table: a review's target version, whether its
// objects hold data only v1 has, and its number of objects.
type row struct {
	to, v1Only string
	objects    int
}

// samples are the measurements of one handler on one row.
type samples struct {
	nsPerObject, allocsPerOp []float64
}

// results are one file's samples, by row and handler.
type results map[row]map[string]*samples

var nameRE = regexp.MustCompile(`^BenchmarkConversionReview/to=([^/]+)/v1only=([^/]+)/objects=(\d+)/handler=(.+?)(-\d+)?$`)

// parse reads `go test -bench` output.
func parse(r io.Reader) (results, error) {
	res := results{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 2 {
			continue
		}
		m := nameRE.FindStringSubmatch(f[0])
		if m == nil {
			continue
		}
		n, _ := strconv.Atoi(m[3])
		k := row{m[1], m[2], n}
		if res[k] == nil {
			res[k] = map[string]*samples{}
		}
		s := res[k][m[4]]
		if s == nil {
			s = &samples{}
			res[k][m[4]] = s
		}
		// f[1] is the iteration count; then value-unit pairs.
		for i := 2; i+1 < len(f); i += 2 {
			v, err := strconv.ParseFloat(f[i], 64)
			if err != nil {
				return nil, fmt.Errorf("%s: %q is no number", f[0], f[i])
			}
			switch f[i+1] {
			case "ns/object":
				s.nsPerObject = append(s.nsPerObject, v)
			case "allocs/op":
				s.allocsPerOp = append(s.allocsPerOp, v)
			}
		}
	}
	return res, sc.Err()
}

func median(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	s := slices.Clone(v)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func (r results) median(k row, handler string) (nsPerObject, allocsPerObject float64, n int) {
	s := r[k][handler]
	if s == nil {
		return 0, 0, 0
	}
	return median(s.nsPerObject), median(s.allocsPerOp) / float64(k.objects), len(s.nsPerObject)
}

func readFile(path string) (results, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer func() { _ = f.Close() }() // read only: closing cannot lose anything
	return parse(f)
}

// mark says whether a ratio meets its goal.
func mark(ok bool) string {
	if ok {
		return ""
	}
	return " ✗"
}

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: benchtable before.txt after.txt")
		os.Exit(2)
	}
	before, err := readFile(os.Args[1])
	if err == nil {
		var after results
		if after, err = readFile(os.Args[2]); err == nil {
			err = write(os.Stdout, before, after)
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "benchtable:", err)
		os.Exit(1)
	}
}

func write(w io.Writer, before, after results) error {
	var rows []row
	for k := range after {
		rows = append(rows, k)
	}
	if len(rows) == 0 {
		return fmt.Errorf("no BenchmarkConversionReview results in the after file")
	}
	// The order of BENCHMARKS.md: v1beta1 first, without the v1-only
	// data first, by number of objects.
	slices.SortFunc(rows, func(a, b row) int {
		if a.to != b.to {
			return strings.Compare(b.to, a.to)
		}
		if a.v1Only != b.v1Only {
			return strings.Compare(a.v1Only, b.v1Only)
		}
		return a.objects - b.objects
	})
	var b strings.Builder
	fmt.Fprintln(&b, "| to | v1-only data | objects | crdforge before µs/obj | crdforge after µs/obj | controller-runtime µs/obj | copy floor µs/obj | floor µs/obj | floor-generated µs/obj | after vs controller-runtime (goal ≥3×, ≥6× at 100+) | after vs copy floor, time (goal ≤2× at 100+) | allocs/object before → after | samples |")
	fmt.Fprintln(&b, "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
	for _, k := range rows {
		bef, bAllocs, _ := before.median(k, "crdforge")
		a, aAllocs, n := after.median(k, "crdforge")
		cr, _, _ := after.median(k, "controller-runtime")
		fc, _, _ := after.median(k, "floor-copy")
		fl, _, _ := after.median(k, "floor")
		flg, _, _ := after.median(k, "floor-generated")
		if a == 0 || cr == 0 || fc == 0 {
			return fmt.Errorf("row %+v lacks crdforge, controller-runtime or floor-copy results in the after file", k)
		}
		vsCR, vsCopy := cr/a, a/fc
		goalCR, goalCopy := 3.0, 0.0 // a single object's review: no goal against the copy
		if k.objects >= 100 {
			goalCR, goalCopy = 6, 2
		}
		yes := "no"
		if k.v1Only == "true" {
			yes = "yes"
		}
		fmt.Fprintf(&b, "| %s | %s | %d | %s | %.1f | %.1f | %.1f | %s | %s | %.2f×%s | %.2f×%s | %.0f → %.0f | %d |\n",
			k.to, yes, k.objects, us(bef), a/1e3, cr/1e3, fc/1e3, us(fl), us(flg),
			vsCR, mark(vsCR >= goalCR), vsCopy, mark(goalCopy == 0 || vsCopy <= goalCopy), bAllocs, aAllocs, n)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// us formats nanoseconds as microseconds, or a dash for none.
func us(ns float64) string {
	if ns == 0 {
		return "–"
	}
	return fmt.Sprintf("%.1f", ns/1e3)
}
