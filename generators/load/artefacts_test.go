package load

import (
	"path/filepath"
	"testing"

	"github.com/crdforge/crdforge/internal/diag"
)

// A root's variables use imports that Check checks shallowly, against what
// they import in turn. When two of them depend on each other, the one
// imported must be checked first, on every run: otherwise the other's
// variable has an invalid type and the root a type error it does not have
// (k8s.io/component-base/logs.NewOptions in Cluster API providers' main
// packages, one run in two).
func TestShallowImportsCheckTheirDependenciesFirst(t *testing.T) {
	dir := writeTree(t, map[string]string{
		"go.mod":          "module example.com/m\n\ngo 1.21\n",
		"logs/api/api.go": "package api\n\ntype Options struct{ Verbosity int }\n\nfunc NewOptions() *Options { return &Options{} }\n",
		"logs/logs.go":    "package logs\n\nimport \"example.com/m/logs/api\"\n\nvar NewOptions = api.NewOptions\n",
		"cmd/main.go": "package main\n\nimport (\n\t\"example.com/m/logs\"\n\t\"example.com/m/logs/api\"\n)\n\n" +
			"var options = logs.NewOptions()\n\nvar verbosity = api.Options{}.Verbosity\n\nfunc main() { _, _ = options, verbosity }\n",
	})
	// Imports is a map: the order a run meets the two imports in is random.
	for range 20 {
		if _, errs := checked(t, dir, "./cmd"); len(errs) > 0 {
			t.Fatalf("a run reported %q", errs[0])
		}
	}
}

// Type errors that only hiding generated files causes are explained by
// checking the roots again with their generated files, against the imports
// as the load checked them: a hand-written `var _ runtime.Object = &T{}`
// (testdata/generatedrefs), a lister of another root's types
// (testdata/generatedusers). Only what needs a dependency's hidden files,
// such as k8s.io/api's Node as a runtime.Object (testdata/dependencygenerated),
// checks the imports again from source, which costs as much as the load.
func TestGeneratedFilesExplainArtefactsWithoutReloadingImports(t *testing.T) {
	for _, tc := range []struct {
		dir        string
		fromSource bool
	}{
		{"generatedrefs", false},
		{"generatedusers", false},
		{"dependencygenerated", true},
	} {
		t.Run(tc.dir, func(t *testing.T) {
			dir, err := filepath.Abs(filepath.Join("..", "..", "testdata", tc.dir))
			if err != nil {
				t.Fatal(err)
			}
			r, errs := checked(t, dir, "./...")
			if len(errs) > 0 {
				t.Fatalf("reported %q", errs[0])
			}
			if r.asLoaded == nil {
				t.Fatal("no root was checked again with its generated files")
			}
			if got := len(r.fromSource.others) > 0; got != tc.fromSource {
				t.Errorf("imports checked again from source: %v, want %v (%d packages)", got, tc.fromSource, len(r.fromSource.others))
			}
		})
	}
}

// checked loads pattern in dir, checks every root and returns what Errors
// reports.
func checked(t *testing.T, dir, pattern string) (*Result, []string) {
	t.Helper()
	r, err := Packages(dir, []string{pattern})
	if err != nil {
		t.Fatal(err)
	}
	r.Check()
	diags := diag.New(r.Fset)
	r.Errors(diags, nil, nil)
	var msgs []string
	for _, d := range diags.Items() {
		msgs = append(msgs, d.Msg)
	}
	return r, msgs
}
