package generators

import (
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
			if p.Syntax != nil {
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
