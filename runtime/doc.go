// Package runtime is what crdforge's generated code and generated webhook
// imports at run time. It stays lean: it never imports the generator's
// dependencies (golang.org/x/tools, github.com/dave/jennifer,
// sigs.k8s.io/controller-tools, k8s.io/gengo), and a test enforces it.
package runtime
