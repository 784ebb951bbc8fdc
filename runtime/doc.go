// Package runtime holds what crdforge's generated conversions call at run
// time: stashing the data a version cannot hold, and restoring it. The
// conversion webhook is package runtime/webhook; runtime/conversiontest is
// the round-trip test harness.
//
// Every package under runtime/ stays lean: none imports the generator's
// dependencies (golang.org/x/tools, github.com/dave/jennifer,
// sigs.k8s.io/controller-tools, k8s.io/gengo), and a test here enforces it.
package runtime
