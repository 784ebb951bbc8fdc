package model

import (
	"go/ast"
	"path/filepath"

	"sigs.k8s.io/controller-tools/pkg/loader"
)

// OwnFile returns the Go file (not a test) of root named name, a base
// name, that the package itself holds, or nil. The load leaves out, by their build tag or
// their generated-code line, the files crdforge writes and those of the
// generators it writes in place of (load.hideTakenOver): a file of that
// name still in the load is the package's own, hand-written or another
// tool's (Crossplane's goverter writes its converters to
// zz_generated.conversion.go), and must not be replaced.
func (m *Model) OwnFile(root *loader.Package, name string) *ast.File {
	for _, f := range root.Syntax {
		if filepath.Base(m.Fset.Position(f.Package).Filename) == name {
			return f
		}
	}
	return nil
}
