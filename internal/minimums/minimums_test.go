package minimums

import (
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/mod/modfile"
)

// TestCheck: one warning at the first line of go.mod below what generated
// code needs, naming every version found and needed, and the command that
// raises them; none where go.mod is at or above, or cannot say.
func TestCheck(t *testing.T) {
	runtime := []Needs{Runtime}
	for _, tc := range []struct {
		name, goMod string
		needs       []Needs
		want        string // Format(""), "" for no warning
	}{
		{"at the minimums", "module m\n\ngo 1.21\n\nrequire (\n\tk8s.io/apimachinery v0.29.0\n\tsigs.k8s.io/controller-runtime v0.16.0\n)\n", runtime, ""},
		{"above them", "module m\n\ngo 1.26.0\n\nrequire (\n\tk8s.io/apimachinery v0.37.2\n\tsigs.k8s.io/controller-runtime v0.25.2\n)\n", runtime, ""},
		{"go only", "module m\n\ngo 1.20\n\nrequire k8s.io/apimachinery v0.29.3\n", runtime,
			"go.mod:3:1: warning: go.mod is below the versions crdforge's generated code needs\n" +
				"  = note: go 1.20 (needs 1.21)\n" +
				"  = note: generated code imports github.com/crdforge/crdforge/runtime; go mod tidy would raise them alone\n" +
				"  = help: run `go get go@1.21.0` before building"},
		{"a requirement in a block", "module m\n\ngo 1.22\n\nrequire (\n\tk8s.io/apimachinery v0.28.4\n\tsigs.k8s.io/controller-runtime v0.16.3\n)\n", runtime,
			"go.mod:6:2: warning: go.mod is below the versions crdforge's generated code needs\n" +
				"  = note: k8s.io/apimachinery v0.28.4 (needs v0.29.0)\n" +
				"  = note: generated code imports github.com/crdforge/crdforge/runtime; go mod tidy would raise them alone\n" +
				"  = help: run `go get k8s.io/apimachinery@v0.29.0` before building"},
		{"all three, with the webhook main, and k8s.io modules of apimachinery's minor",
			"module m\n\ngo 1.20\n\nrequire (\n\tk8s.io/api v0.25.0\n\tk8s.io/apimachinery v0.25.3\n\tk8s.io/client-go v0.25.3\n\tk8s.io/utils v0.0.0-20220728103510-ee6ede2d64ed\n\tsigs.k8s.io/controller-runtime v0.13.1\n)\n",
			[]Needs{Runtime, Webhook, Runtime},
			"go.mod:3:1: warning: go.mod is below the versions crdforge's generated code needs\n" +
				"  = note: go 1.20 (needs 1.21), k8s.io/apimachinery v0.25.3 (needs v0.29.0), sigs.k8s.io/controller-runtime v0.13.1 (needs v0.16.0)\n" +
				"  = note: generated code imports github.com/crdforge/crdforge/runtime and github.com/crdforge/crdforge/webhook; go mod tidy would raise them alone\n" +
				"  = help: run `go get go@1.21.0 k8s.io/apimachinery@v0.29.0 sigs.k8s.io/controller-runtime@v0.16.0 k8s.io/api@v0.29.0 k8s.io/client-go@v0.29.0` before building"},
		{"no go directive", "module m\n\nrequire k8s.io/apimachinery v0.29.0\n", runtime,
			"go.mod:1:1: warning: go.mod is below the versions crdforge's generated code needs\n" +
				"  = note: no go directive (needs 1.21)\n" +
				"  = note: generated code imports github.com/crdforge/crdforge/runtime; go mod tidy would raise them alone\n" +
				"  = help: run `go get go@1.21.0` before building"},
		{"pinned by a replace below", "module m\n\ngo 1.22\n\nrequire k8s.io/apimachinery v0.30.0\n\nreplace k8s.io/apimachinery => k8s.io/apimachinery v0.28.0\n", runtime,
			"go.mod:7:1: warning: go.mod is below the versions crdforge's generated code needs\n" +
				"  = note: k8s.io/apimachinery v0.28.0 (needs v0.29.0)\n" +
				"  = note: generated code imports github.com/crdforge/crdforge/runtime; go mod tidy would raise them alone\n" +
				"  = help: run `go mod edit -replace=k8s.io/apimachinery=k8s.io/apimachinery@v0.29.0` before building"},
		{"raised by a replace", "module m\n\ngo 1.22\n\nrequire k8s.io/apimachinery v0.25.0\n\nreplace k8s.io/apimachinery v0.25.0 => k8s.io/apimachinery v0.29.2\n", runtime, ""},
		{"replaced by a directory", "module m\n\ngo 1.22\n\nrequire k8s.io/apimachinery v0.25.0\n\nreplace k8s.io/apimachinery => ../apimachinery\n", runtime, ""},
		{"not required at all", "module m\n\ngo 1.22\n", runtime, ""},
		{"nothing generated needs anything", "module m\n\ngo 1.16\n", nil, ""},
		{"not a go.mod", "require (\n", runtime, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d, ok := Check("go.mod", []byte(tc.goMod), tc.needs)
			got := ""
			if ok {
				got = d.Format("")
			}
			if got != tc.want {
				t.Errorf("got\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
}

// TestNeedsAreTheLeanModulesGoMods holds each row of the table to its lean
// module's go.mod: the go directive and the versions it requires.
func TestNeedsAreTheLeanModulesGoMods(t *testing.T) {
	for dir, needs := range map[string]Needs{"runtime": Runtime, "webhook": Webhook} {
		p := filepath.Join("..", "..", dir, "go.mod")
		content, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		mf, err := modfile.Parse(p, content, nil)
		if err != nil {
			t.Fatal(err)
		}
		if mf.Go.Version != needs.Go {
			t.Errorf("%s says go %s, the table %s", p, mf.Go.Version, needs.Go)
		}
		required := map[string]string{}
		for _, r := range mf.Require {
			required[r.Mod.Path] = r.Mod.Version
		}
		for _, r := range needs.Require {
			if required[r.Path] != r.Version {
				t.Errorf("%s requires %s %s, the table %s", p, r.Path, required[r.Path], r.Version)
			}
		}
	}
}
