package load

import (
	"go/types"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sigs.k8s.io/controller-tools/pkg/loader"
)

// writeTree writes files (slash-separated paths relative to dir) and
// returns dir.
func writeTree(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// twoAPIs is a module with two API directories whose types share a types
// package that neither pattern names, and a standard library type.
var twoAPIs = map[string]string{
	"go.mod":               "module example.com/m\n\ngo 1.21\n",
	"common/common.go":     "package common\n\ntype Condition struct{ Reason string }\n",
	"api/v1/types.go":      "package v1\n\nimport (\n\t\"time\"\n\n\t\"example.com/m/common\"\n)\n\ntype Status struct {\n\tConditions []common.Condition\n\tTimeout    time.Duration\n}\n",
	"old/v1beta1/types.go": "package v1beta1\n\nimport (\n\t\"time\"\n\n\t\"example.com/m/common\"\n)\n\ntype Status struct {\n\tConditions []common.Condition\n\tTimeout    time.Duration\n}\n",
	"docs/README.md":       "no Go here\n",
}

func root(t *testing.T, r *Result, path string) *loader.Package {
	t.Helper()
	for _, p := range r.Roots {
		if p.PkgPath == path {
			return p
		}
	}
	t.Fatalf("no root %s among %d roots", path, len(r.Roots))
	return nil
}

// statusFields are the field types of package path's Status, checked.
func statusFields(t *testing.T, r *Result, path string) []types.Type {
	t.Helper()
	obj := root(t, r, path).Types.Scope().Lookup("Status")
	if obj == nil {
		t.Fatalf("%s has no Status", path)
	}
	st := obj.Type().Underlying().(*types.Struct)
	var out []types.Type
	for i := range st.NumFields() {
		out = append(out, st.Field(i).Type())
	}
	return out
}

// Patterns of one module, however they are written, are one load: a type
// two roots share, from a package no pattern names or from the standard
// library, is one type. controller-tools' loader, given the filesystem
// patterns, loads each on its own and makes them two.
func TestPackagesOneLoadPerModule(t *testing.T) {
	dir := writeTree(t, twoAPIs)
	for name, patterns := range map[string][]string{
		"two relative patterns":         {"./api/...", "./old/..."},
		"absolute and relative":         {filepath.Join(dir, "api", "v1"), "./old/v1beta1"},
		"import path and relative":      {"example.com/m/api/...", "./old/..."},
		"overlapping patterns":          {"./api/...", "./api/v1", "./old/...", "./..."},
		"a pattern from a subdirectory": {"../api/...", "../old/..."},
	} {
		t.Run(name, func(t *testing.T) {
			from := dir
			if strings.HasPrefix(patterns[0], "..") {
				from = filepath.Join(dir, "docs")
			}
			r, err := Packages(from, patterns)
			if err != nil {
				t.Fatal(err)
			}
			r.Check()
			for _, root := range r.Roots {
				for _, e := range root.Errors {
					t.Errorf("%s: %s", root.PkgPath, e)
				}
			}
			v1, v1beta1 := statusFields(t, r, "example.com/m/api/v1"), statusFields(t, r, "example.com/m/old/v1beta1")
			for i := range v1 {
				if !types.Identical(v1[i], v1beta1[i]) {
					t.Errorf("field %d: %s and %s are different types", i, v1[i], v1beta1[i])
				}
			}
			seen := map[string]bool{}
			for _, root := range r.Roots {
				if seen[root.PkgPath] {
					t.Errorf("root %s twice", root.PkgPath)
				}
				seen[root.PkgPath] = true
			}
		})
	}
}

// A module nested in the directory of a "/..." pattern is loaded too, as
// controller-tools' loader has it; two patterns inside a nested module are
// one load of that module; and a root that a package of another module
// imports is the very package the other module's load sees.
func TestPackagesNestedModules(t *testing.T) {
	files := map[string]string{
		"go.mod":             "module example.com/m\n\ngo 1.21\n\nrequire example.com/m/nested v0.0.0\n\nreplace example.com/m/nested => ./nested\n",
		"hub/types.go":       "package hub\n\nimport \"example.com/m/nested/x\"\n\ntype Hub struct{ X x.Status }\n",
		"nested/go.mod":      "module example.com/m/nested\n\ngo 1.21\n",
		"nested/common/c.go": "package common\n\ntype Condition struct{ Reason string }\n",
		"nested/x/types.go":  "package x\n\nimport \"example.com/m/nested/common\"\n\ntype Status struct{ Conditions []common.Condition }\n",
		"nested/y/types.go":  "package y\n\nimport \"example.com/m/nested/common\"\n\ntype Status struct{ Conditions []common.Condition }\n",
	}
	dir := writeTree(t, files)

	t.Run("two patterns in a nested module", func(t *testing.T) {
		r, err := Packages(dir, []string{"./nested/x/...", "./nested/y"})
		if err != nil {
			t.Fatal(err)
		}
		r.Check()
		x, y := statusFields(t, r, "example.com/m/nested/x"), statusFields(t, r, "example.com/m/nested/y")
		if !types.Identical(x[0], y[0]) {
			t.Errorf("%s and %s are different types", x[0], y[0])
		}
	})

	t.Run("./... reaches the nested module; its roots are shared", func(t *testing.T) {
		r, err := Packages(dir, []string{"./..."})
		if err != nil {
			t.Fatal(err)
		}
		var paths []string
		for _, root := range r.Roots {
			paths = append(paths, root.PkgPath)
		}
		if got, want := strings.Join(paths, " "), "example.com/m/hub example.com/m/nested/common example.com/m/nested/x example.com/m/nested/y"; got != want {
			t.Fatalf("roots %s, want %s", got, want)
		}
		hub, x := root(t, r, "example.com/m/hub"), root(t, r, "example.com/m/nested/x")
		if got := hub.Imports()["example.com/m/nested/x"]; got != x {
			t.Errorf("hub imports another example.com/m/nested/x than the root")
		}
	})
}

// A pattern that names nothing is an error that names the pattern; every
// such pattern is reported, and nothing is loaded.
func TestPackagesPatternErrors(t *testing.T) {
	dir := writeTree(t, twoAPIs)
	for _, tc := range []struct {
		patterns []string
		want     []string
	}{
		{[]string{"./nope/..."}, []string{"pattern ./nope/...: no directory " + filepath.Join(dir, "nope")}},
		{[]string{"./api/v1/types.go"}, []string{"pattern ./api/v1/types.go: " + filepath.Join(dir, "api/v1/types.go") + " is not a directory"}},
		{[]string{"./docs"}, []string{"pattern ./docs: no Go files in " + filepath.Join(dir, "docs")}},
		{[]string{"./docs/..."}, []string{"pattern ./docs/...: matches no Go package"}},
		{[]string{"example.com/m/nope/..."}, []string{"pattern example.com/m/nope/...: matches no Go package"}},
		{[]string{"./api/...", "./nope", "./docs/..."}, []string{"pattern ./nope: no directory", "pattern ./docs/...: matches no Go package"}},
	} {
		t.Run(strings.Join(tc.patterns, " "), func(t *testing.T) {
			r, err := Packages(dir, tc.patterns)
			if err == nil {
				t.Fatalf("loaded %d roots, want an error", len(r.Roots))
			}
			lines := strings.Split(err.Error(), "\n")
			if len(lines) != len(tc.want) {
				t.Fatalf("error %q, want %d line(s)", err, len(tc.want))
			}
			for i, want := range tc.want {
				if !strings.HasPrefix(lines[i], want) {
					t.Errorf("error line %q, want %q", lines[i], want)
				}
			}
		})
	}
}

// A directory in no module, with modules nested in it, loads those modules;
// without any, it is an error.
func TestPackagesOutsideAnyModule(t *testing.T) {
	dir := writeTree(t, map[string]string{
		"a/go.mod":      "module example.com/a\n\ngo 1.21\n",
		"a/v1/types.go": "package v1\n\ntype T struct{}\n",
		"b/go.mod":      "module example.com/b\n\ngo 1.21\n",
		"b/v1/types.go": "package v1\n\ntype T struct{}\n",
		"loose/x.go":    "package loose\n",
	})
	if moduleRoot(dir) != "" {
		t.Skip("the temporary directory is inside a module")
	}
	r, err := Packages(dir, []string{"./..."})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Roots) != 2 || r.Roots[0].PkgPath != "example.com/a/v1" || r.Roots[1].PkgPath != "example.com/b/v1" {
		t.Errorf("roots %v, want example.com/a/v1 and example.com/b/v1", r.Roots)
	}
	if _, err := Packages(dir, []string{"./loose"}); err == nil || !strings.Contains(err.Error(), "is in no Go module") {
		t.Errorf("error %v, want one saying the directory is in no module", err)
	}
}

// The go command's errors carry positions relative to the directory it ran
// in, a module's root: the load makes them absolute, so that a run from a
// subdirectory reports them where they are.
func TestPackagesListErrorPositions(t *testing.T) {
	dir := writeTree(t, map[string]string{
		"go.mod":            "module example.com/m\n\ngo 1.21\n",
		"a/internal/x/x.go": "package x\n",
		"b/y/y.go":          "package y\n\nimport _ \"example.com/m/a/internal/x\"\n",
	})
	r, err := Packages(filepath.Join(dir, "b"), []string{"./..."})
	if err != nil {
		t.Fatal(err)
	}
	y := root(t, r, "example.com/m/b/y")
	want := filepath.Join(dir, "b", "y", "y.go") + ":3:8"
	if len(y.Errors) == 0 || y.Errors[0].Pos != want {
		t.Errorf("errors %v, want one at %s", y.Errors, want)
	}
}

// A pattern's directory may be one a wildcard skips (testdata, _x): the go
// command lists it from there, as controller-tools' loader does, and finds
// what it holds, from the module's root or from inside.
func TestPackagesInSkippedDirectories(t *testing.T) {
	dir := writeTree(t, map[string]string{
		"go.mod":                   "module example.com/m\n\ngo 1.21\n",
		"testdata/_case/v1/t.go":   "package v1\n",
		"testdata/_case/v2/t.go":   "package v2\n",
		"testdata/.hidden/v3/t.go": "package v3\n",
	})
	for _, tc := range []struct {
		from     string
		patterns []string
	}{
		{".", []string{"./testdata/_case/...", "./testdata/.hidden/v3"}},
		{"testdata/_case", []string{"./...", "../.hidden/..."}},
	} {
		r, err := Packages(filepath.Join(dir, tc.from), tc.patterns)
		if err != nil {
			t.Fatalf("from %s: %v", tc.from, err)
		}
		var got []string
		for _, root := range r.Roots {
			got = append(got, root.PkgPath)
		}
		if want := "example.com/m/testdata/.hidden/v3 example.com/m/testdata/_case/v1 example.com/m/testdata/_case/v2"; strings.Join(got, " ") != want {
			t.Errorf("from %s, %v: roots %v, want %s", tc.from, tc.patterns, got, want)
		}
	}
}

// A run's one pattern is loaded without the listing that several patterns
// need (the go command's listing costs a large part of a second), as it is,
// unless controller-tools' loader would load it twice: a "/..." pattern in
// a module's root, whose walk for nested modules finds the module's own
// go.mod. That one is listed, as are two patterns, or a pattern that
// reaches a nested module.
func TestPlanLoadsOnePatternAsItIs(t *testing.T) {
	files := maps.Clone(twoAPIs)
	files["testdata/_case/v1/t.go"] = "package v1\n"
	dir := writeTree(t, files)
	for _, tc := range []struct {
		patterns []string
		alone    bool
		load     string // the one load's argument
	}{
		{[]string{"./..."}, false, ""},
		{[]string{"./api/..."}, true, "./..."},
		{[]string{"./api/v1"}, true, "./."},
		{[]string{"example.com/m/api/..."}, true, "example.com/m/api/..."},
		{[]string{"./testdata/_case/..."}, true, "./..."},
		{[]string{"./api/...", "./old/..."}, false, ""},
	} {
		loads, err := plan(dir, tc.patterns)
		if err != nil {
			t.Fatal(err)
		}
		alone := len(loads) == 1 && loads[0].alone != nil
		if alone != tc.alone {
			t.Errorf("%v: loaded without a listing: %v, want %v", tc.patterns, alone, tc.alone)
			continue
		}
		if alone && loads[0].paths[0] != tc.load {
			t.Errorf("%v: loaded as %s, want %s", tc.patterns, loads[0].paths[0], tc.load)
		}
	}
	nested := writeTree(t, map[string]string{
		"go.mod":      "module example.com/m\n\ngo 1.21\n",
		"v1/t.go":     "package v1\n",
		"sub/go.mod":  "module example.com/sub\n\ngo 1.21\n",
		"sub/v1/t.go": "package v1\n",
	})
	loads, err := plan(nested, []string{"./..."})
	if err != nil {
		t.Fatal(err)
	}
	if len(loads) != 2 || loads[0].alone != nil || loads[1].alone != nil {
		t.Errorf("./... over a nested module: %d loads, want 2 listed ones", len(loads))
	}
}
