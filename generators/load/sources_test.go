package load

import (
	"path/filepath"
	"slices"
	"testing"
)

// The sources of a load are the directories of the roots and of the main
// module's packages they import, directly or not (here api/v1 imports
// common, which imports deep), with the module's go.mod and go.sum; not the
// standard library's, and not a package of the module that nothing imports.
func TestSourcesFollowTheModulesImports(t *testing.T) {
	dir := writeTree(t, map[string]string{
		"go.mod":           "module example.com/m\n\ngo 1.21\n",
		"deep/deep.go":     "package deep\n\ntype Reason string\n",
		"common/common.go": "package common\n\nimport \"example.com/m/deep\"\n\ntype Condition struct{ Reason deep.Reason }\n",
		"api/v1/types.go":  "package v1\n\nimport (\n\t\"time\"\n\n\t\"example.com/m/common\"\n)\n\ntype Status struct {\n\tConditions []common.Condition\n\tTimeout    time.Duration\n}\n",
		"unused/unused.go": "package unused\n",
	})
	r, err := Packages(dir, []string{"./api/..."})
	if err != nil {
		t.Fatal(err)
	}
	got := r.Sources()
	want := []string{"api/v1", "common", "deep"}
	var rel []string
	for _, d := range got.PackageDirs {
		r, _ := filepath.Rel(dir, d)
		rel = append(rel, filepath.ToSlash(r))
	}
	if !slices.Equal(rel, want) {
		t.Errorf("package dirs %v, want %v", rel, want)
	}
	for _, f := range []string{"go.mod", "go.sum", ProjectFile} {
		if !slices.Contains(got.Files, filepath.Join(dir, f)) {
			t.Errorf("files %v lack %s", got.Files, f)
		}
	}
}
