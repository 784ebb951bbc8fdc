package conversion

import (
	"sigs.k8s.io/controller-tools/pkg/loader"

	"github.com/crdforge/crdforge/generators/model"
	"github.com/crdforge/crdforge/internal/diag"
)

// OwnFileName and OwnTestFileName are where a package's conversions and
// their round-trip tests go when the package holds a file of its own under
// FileName or TestFileName: another generator's (Crossplane's goverter
// writes its converters to zz_generated.conversion.go, and the package's
// code calls them) or a hand-written one. crdforge never replaces such a
// file, and a run should not stop over a name.
const (
	OwnFileName     = "zz_generated.crdforge.conversion.go"
	OwnTestFileName = "zz_generated.crdforge.conversion_test.go"
)

// fileNames returns the names of pkg's conversion file and round-trip test
// file: FileName and TestFileName, or, when the package holds a file of its
// own under FileName, crdforge's own names for both, so that the two stay
// alike; a warning at that file says so. Once the file is gone, the next
// full run writes the usual names and removes crdforge's others (Owns).
// (A test file of the package's own under TestFileName is rarer; writing
// is refused there, naming it.)
func fileNames(m *model.Model, pkg *loader.Package, diags *diag.List) (code, test string) {
	if f := m.OwnFile(pkg, FileName); f != nil {
		diags.Warnf(f.Package, "%s is not crdforge's: conversions go to %s", FileName, OwnFileName).
			Note("it comes from neither crdforge nor a generator crdforge writes in place of (controller-gen, conversion-gen, deepcopy-gen), and the package's code may use what it declares").
			Note("crdforge writes the conversions of %s to %s and their round-trip tests to %s", pkg.PkgPath, OwnFileName, OwnTestFileName)
		return OwnFileName, OwnTestFileName
	}
	return FileName, TestFileName
}
