// Package runtime is the root of what crdforge's generated code runs with;
// it exports nothing itself. Generated API code imports runtime/lossless
// (conversions that keep round trips exact), generated tests
// runtime/conversiontest (the round-trip harness), and a generated or
// hand-written webhook main runtime/webhook; the rest is internal.
//
// Every package under runtime/ stays lean: none imports the generator's
// dependencies (golang.org/x/tools, github.com/dave/jennifer,
// sigs.k8s.io/controller-tools, k8s.io/gengo), and a test here enforces it.
package runtime
