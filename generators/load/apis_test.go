package load

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"sigs.k8s.io/controller-tools/pkg/loader"

	"github.com/crdforge/crdforge/internal/diag"
)

// A run for CRDs alone checks the roots API packages need, and no other:
// an API package, the shared types it imports, a package that declares a
// Convert_ function, and one a +k8s:conversion-gen tag names; not a client
// whose imports (net/http here) are then not even parsed.
func TestCheckAPIsChecksWhatAPIsNeed(t *testing.T) {
	dir := writeTree(t, map[string]string{
		"go.mod":            "module example.com/m\n\ngo 1.21\n",
		"shared/shared.go":  "package shared\n\ntype Condition struct{ Reason string }\n",
		"api/v1/doc.go":     "// +groupName=example.com\n// +k8s:conversion-gen=example.com/m/internal/hub\npackage v1\n",
		"api/v1/types.go":   "package v1\n\nimport \"example.com/m/shared\"\n\ntype Widget struct{ Conditions []shared.Condition }\n",
		"internal/hub/t.go": "package hub\n\ntype Widget struct{}\n",
		"convert/c.go":      "package convert\n\nfunc Convert_a_A_To_b_B(in, out *int, s any) error { return nil }\n",
		"client/c.go":       "package client\n\nimport \"net/http\"\n\nvar Default = http.DefaultClient\n",
	})
	r, err := Packages(dir, []string{"./..."})
	if err != nil {
		t.Fatal(err)
	}
	r.CheckAPIs()
	var unchecked []string
	for _, root := range r.Roots {
		if r.Unchecked[root] {
			unchecked = append(unchecked, root.PkgPath)
			if root.Types != nil && root.Types.Complete() {
				t.Errorf("%s is unchecked, but its types are complete", root.PkgPath)
			}
		} else if root.Types == nil || !root.Types.Complete() {
			t.Errorf("%s was not checked", root.PkgPath)
		}
		if root.Syntax == nil {
			t.Errorf("%s was not parsed: its markers are read", root.PkgPath)
		}
	}
	if want := []string{"example.com/m/client"}; !slices.Equal(unchecked, want) {
		t.Errorf("unchecked roots %v, want %v", unchecked, want)
	}
	var http *loader.Package
	for _, root := range r.Roots {
		if root.PkgPath == "example.com/m/client" {
			http = root.Imports()["net/http"]
		}
	}
	if http == nil || http.Syntax != nil {
		t.Errorf("net/http, which only the client imports, was parsed (or not loaded: %v)", http == nil)
	}
}

// A run for CRDs alone reports a root's type errors in type declarations,
// which its CRDs are made from, and no other: not a variable's, which a
// full check reports; and it explains none by the generated files, which
// would check every import from source (testdata/generatedrefs: its
// Objects variable needs DeepCopyObject from the hidden deepcopy file).
func TestCheckAPIsReportsTypeDeclarationErrorsOnly(t *testing.T) {
	dir := writeTree(t, map[string]string{
		"go.mod":        "module example.com/m\n\ngo 1.21\n",
		"api/v1/doc.go": "// +groupName=example.com\npackage v1\n",
		"api/v1/types.go": "package v1\n\nimport \"fmt\"\n\n" +
			"// Widget is a kind.\ntype Widget struct{ Size Sizes }\n\n" +
			"var _ fmt.Stringer = Widget{}\n",
	})
	for _, tc := range []struct {
		name  string
		check func(*Result)
		want  []string
	}{
		{"CheckAPIs", (*Result).CheckAPIs, []string{"undefined: Sizes"}},
		{"Check", (*Result).Check, []string{"undefined: Sizes", "does not implement fmt.Stringer"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := Packages(dir, []string{"./..."})
			if err != nil {
				t.Fatal(err)
			}
			tc.check(r)
			diags := diag.New(r.Fset)
			r.Errors(diags, nil, nil)
			var got []string
			for _, d := range diags.Items() {
				got = append(got, d.Msg)
			}
			if len(got) != len(tc.want) {
				t.Fatalf("errors %q, want %d: %q", got, len(tc.want), tc.want)
			}
			for i, want := range tc.want {
				if !strings.Contains(got[i], want) {
					t.Errorf("error %q, want one with %q", got[i], want)
				}
			}
		})
	}

	refs, err := filepath.Abs(filepath.Join("..", "..", "testdata", "generatedrefs"))
	if err != nil {
		t.Fatal(err)
	}
	r, err := Packages(refs, []string{"./..."})
	if err != nil {
		t.Fatal(err)
	}
	r.CheckAPIs()
	diags := diag.New(r.Fset)
	r.Errors(diags, nil, nil)
	if len(diags.Items()) > 0 || r.asLoaded != nil {
		t.Errorf("generatedrefs: %d errors, checked again with its generated files: %v", len(diags.Items()), r.asLoaded != nil)
	}
}
