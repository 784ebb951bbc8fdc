// Package bench compares crdforge's generated conversions of the widgets
// example (examples/widgets/api/v1alpha1 ↔ v1) with conversion-gen's output for
// a copy of the same two packages (testdata/convgen). It holds only benchmarks
// and tests; see bench_test.go, testdata/convgen/README.md and BENCHMARKS.md's
// "Conversions against conversion-gen" at the repository root.
package bench
