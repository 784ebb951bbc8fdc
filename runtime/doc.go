// Package runtime is the root of the module github.com/crdforge/crdforge/runtime,
// what crdforge's generated API code imports; it exports nothing itself.
// Generated conversions import runtime/lossless (conversions that keep
// round trips exact) and generated tests runtime/conversiontest (the
// round-trip harness). The webhook server is not here: it is the module
// github.com/crdforge/crdforge/webhook, which only a generated webhook main
// imports.
//
// The module is lean and kept at the lowest Go, Kubernetes and
// controller-runtime versions it works with, so that adopting crdforge
// never raises an API module's: it requires nothing of the generator
// (golang.org/x/tools, github.com/dave/jennifer, sigs.k8s.io/controller-tools,
// k8s.io/gengo, crdforge's own generator packages), and a test here
// enforces it.
//
// The module is licensed under the Apache License 2.0 (LICENSE).
package runtime
