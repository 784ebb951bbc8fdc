package main

import (
	"strings"
	"testing"
)

func TestTableRowsFromBenchOutput(t *testing.T) {
	before := `BenchmarkConversionReview/to=v1beta1/v1only=false/objects=100/handler=crdforge-2   10   4000000 ns/op   43.50 MB/s   40000 ns/object   25000 objects/s   1715112 B/op   8200 allocs/op
BenchmarkConversionReview/to=v1beta1/v1only=false/objects=100/handler=crdforge-2   10   6000000 ns/op   43.50 MB/s   60000 ns/object   25000 objects/s   1715112 B/op   8200 allocs/op
`
	after := `goos: linux
BenchmarkConversionReview/to=v1beta1/v1only=false/objects=100/handler=crdforge-2   10   2000000 ns/op   1 MB/s   20000 ns/object   50000 objects/s   700000 B/op   5800 allocs/op
BenchmarkConversionReview/to=v1beta1/v1only=false/objects=100/handler=controller-runtime-2   10   2000000 ns/op   1 MB/s   120000 ns/object   1 objects/s   1 B/op   15000 allocs/op
BenchmarkConversionReview/to=v1beta1/v1only=false/objects=100/handler=floor-copy-2   10   2000000 ns/op   1 MB/s   8000 ns/object   1 objects/s   1 B/op   1 allocs/op
BenchmarkConversionReview/to=v1beta1/v1only=false/objects=100/handler=floor-2   10   2000000 ns/op   1 MB/s   16000 ns/object   1 objects/s   1 B/op   1 allocs/op
BenchmarkConversionReview/to=v1beta1/v1only=false/objects=100/handler=floor-generated-2   10   2000000 ns/op   1 MB/s   10000 ns/object   1 objects/s   1 B/op   1 allocs/op
`
	b, err := parse(strings.NewReader(before))
	if err != nil {
		t.Fatal(err)
	}
	a, err := parse(strings.NewReader(after))
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	if err := write(&out, b, a); err != nil {
		t.Fatal(err)
	}
	want := "| v1beta1 | no | 100 | 50.0 | 20.0 | 120.0 | 8.0 | 16.0 | 10.0 | 6.00× | 2.50× ✗ | 82 → 58 | 1 |"
	if !strings.Contains(out.String(), want) {
		t.Errorf("got\n%s\nwant the row\n%s", out.String(), want)
	}
	if err := write(&out, b, results{}); err == nil {
		t.Error("an empty after file makes a table")
	}
}
