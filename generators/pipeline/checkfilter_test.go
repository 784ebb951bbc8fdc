package pipeline

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sigs.k8s.io/controller-tools/pkg/loader"
)

// TestCRDsAloneCheckWhatControllerGenChecks: generating only CRDs
// type-checks the imports that schemas can reach, as controller-gen does,
// not the whole dependency tree of every import: resource.Quantity's
// unexported, untagged inf.Dec field leads to gopkg.in/inf.v0 and from there
// into the standard library, none of which a CRD needs. A full run still
// checks everything: conversions need every type. (Settling the conversion
// strategies on the partial check is TestGoldenCRDsAlone's, in the cli
// package: testdata/partialtypes makes a CRD-only run load again, whole.)
func TestCRDsAloneCheckWhatControllerGenChecks(t *testing.T) {
	dir := oneKindTree(t, "_checkfilter")
	for _, tc := range []struct {
		only     []string
		wantInfo bool
	}{
		{[]string{"crd"}, false},
		{nil, true},
	} {
		res := generateWithoutErrors(t, dir, tc.only)
		parsed := map[string]bool{}
		eachLoaded(res.Model.Roots, func(p *loader.Package) {
			if checked(p) {
				parsed[p.PkgPath] = true
			}
		})
		if got := parsed["gopkg.in/inf.v0"]; got != tc.wantInfo {
			t.Errorf("--only %v: gopkg.in/inf.v0 type-checked: %v, want %v (%d packages checked)", tc.only, got, tc.wantInfo, len(parsed))
		}
		// What a groupversion_info.go's variable uses is checked (its own
		// declarations), or the root would have type errors.
		if !parsed["k8s.io/apimachinery/pkg/runtime/schema"] {
			t.Errorf("--only %v: runtime/schema not checked", tc.only)
		}
	}
}

// TestCRDsAloneLoadOnceForSameLayoutCopies: a CRD-only run loads again, checking
// everything, only when settling a strategy would read a type its partial
// check left invalid. testdata/samelayout compares Cluster API–style conditions,
// a version's own copy against a shared one, both holding a metav1.Time
// whose time.Time the partial check never looks into: two fields of one
// named type are same-layout copies without a look inside, so the run checks less than a
// full one. testdata/partialtypes asks whether a shared type that holds an
// unchecked netip.Addr copies by assignment, which the partial check cannot
// tell: that run loads again and checks what a full run checks.
func TestCRDsAloneLoadOnceForSameLayoutCopies(t *testing.T) {
	for _, tc := range []struct {
		dir    string
		cfg    Config
		reload bool
	}{
		{"samelayout", Config{}, false},
		{"partialtypes", Config{IgnoreUnexportedFields: true}, true},
	} {
		t.Run(tc.dir, func(t *testing.T) {
			dir, err := filepath.Abs(filepath.Join("..", "..", "testdata", tc.dir))
			if err != nil {
				t.Fatal(err)
			}
			checked := map[string]int{}
			for _, only := range []string{"crd", ""} {
				cfg := tc.cfg
				cfg.Dir = dir
				if only != "" {
					cfg.Only = []string{only}
				}
				res, err := Model(cfg)
				if err != nil {
					t.Fatal(err)
				}
				if res.Model == nil {
					t.Fatalf("--only %q: no model: %v", only, res.Diags.Items())
				}
				eachLoaded(res.Model.Roots, func(p *loader.Package) {
					if p.Types != nil && p.Types.Complete() {
						checked[only]++
					}
				})
			}
			if reloaded := checked["crd"] == checked[""]; reloaded != tc.reload {
				t.Errorf("CRD-only run checked %d packages, a full run %d: loaded again: %v, want %v",
					checked["crd"], checked[""], reloaded, tc.reload)
			}
		})
	}
}

// TestCRDsAloneLeaveOtherRootsUnchecked: `./...` names more than API
// packages (a manager, controllers, clients); a CRD-only run type-checks
// none of them, nor does it hand them to controller-tools' schema parser,
// which would: what only they import is never parsed. A full run checks
// them.
func TestCRDsAloneLeaveOtherRootsUnchecked(t *testing.T) {
	dir := oneKindTree(t, "_otherroots")
	client := filepath.Join(dir, "client")
	if err := os.MkdirAll(client, 0o755); err != nil {
		t.Fatal(err)
	}
	src := "package client\n\nimport \"net/http\"\n\n// Default is the client.\nvar Default = http.DefaultClient\n"
	if err := os.WriteFile(filepath.Join(client, "client.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		only        []string
		wantChecked bool
	}{
		{[]string{"crd"}, false},
		{nil, true},
	} {
		res := generateWithoutErrors(t, dir, tc.only)
		var httpParsed, clientChecked bool
		eachLoaded(res.Model.Roots, func(p *loader.Package) {
			switch {
			case p.PkgPath == "net/http":
				httpParsed = checked(p)
			case strings.HasSuffix(p.PkgPath, "/client"):
				clientChecked = checked(p)
			}
		})
		if httpParsed != tc.wantChecked || clientChecked != tc.wantChecked {
			t.Errorf("--only %v: client checked %v, net/http parsed %v; want %v", tc.only, clientChecked, httpParsed, tc.wantChecked)
		}
	}
}

// checked says the load parsed and type-checked p. Its syntax is no sign of
// it: the run lets go of the imports' syntax once the model is built
// (load.DropImports). Its types stay, complete once checked.
func checked(p *loader.Package) bool { return p.Types != nil && p.Types.Complete() }
