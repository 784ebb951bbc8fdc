// Package controllertools writes the manifests controller-gen's rbac and
// webhook generators write (config/rbac/role.yaml, the ClusterRole of every
// +kubebuilder:rbac marker, and config/webhook/manifests.yaml, the admission
// webhook configurations of every +kubebuilder:webhook marker), by running
// those generators of controller-tools on the packages crdforge loaded: a
// kubebuilder project's `make manifests` then needs no controller-gen, and
// the bytes are controller-gen's own.
//
// The markers are usually outside the API packages (internal/controller,
// internal/webhook), so these generators read every root of the load, not
// only the model's kinds; and, as controller-gen's, they read only markers,
// never types.
package controllertools

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/token"
	"io"
	"path/filepath"

	"sigs.k8s.io/controller-tools/pkg/genall"
	"sigs.k8s.io/controller-tools/pkg/loader"

	"github.com/crdforge/crdforge/generators/model"
	"github.com/crdforge/crdforge/internal/diag"
	"github.com/crdforge/crdforge/internal/output"
)

// Switch says whether a generator of this package writes its file: On and
// Off whatever the project, Auto only in a kubebuilder project (a PROJECT
// file), whose Makefile runs controller-gen's rbac and webhook generators
// on every `make manifests`. Elsewhere a project may keep its RBAC and
// admission manifests by hand, and a file crdforge wrote unasked would be
// one more to review.
type Switch int

// The switch's values; the zero value is Auto.
const (
	Auto Switch = iota
	On
	Off
)

// writes reports whether a generator switched sw writes for m.
func (sw Switch) writes(m *model.Model) bool {
	return sw == On || sw == Auto && m.Kubebuilder != nil
}

// needs is what both generators need of the model: the marker collector
// only, which a model for CRDs alone would drop.
var needs = model.Options{PackageMarkers: true}

// checkNothing is the type checker's node filter of both generators: they
// read markers, which need syntax alone, so a run of them with the CRD
// generator checks no more than the CRDs need, as controller-gen's does.
func checkNothing(ast.Node) bool { return false }

// run runs gen, one of controller-tools' generators, over every root of m
// with the model's collector, and returns the one file it wrote, at path,
// or nothing when it wrote none (no markers). Its failure is an error at
// the first root, which controller-tools does not say more precisely.
func run(m *model.Model, gen genall.Generator, path string, diags *diag.List) []output.File {
	capture := &memoryOutput{}
	ctx := &genall.GenerationContext{
		Collector:  m.Collector,
		Roots:      m.Roots,
		Checker:    m.Checker,
		OutputRule: capture,
		InputRule:  noInput{},
	}
	if err := gen.Generate(ctx); err != nil {
		diags.Errorf(firstPackage(m.Roots), "%s: %v", path, err)
		return nil
	}
	if capture.buf == nil {
		return nil
	}
	return []output.File{{Path: path, Content: capture.buf.Bytes()}}
}

// memoryOutput is a genall.OutputRule that keeps the one file a generator
// writes in memory, so that only crdforge's output stage writes to disk.
type memoryOutput struct{ buf *bytes.Buffer }

func (o *memoryOutput) Open(_ *loader.Package, _ string) (io.WriteCloser, error) {
	o.buf = &bytes.Buffer{}
	return nopCloser{o.buf}, nil
}

type nopCloser struct{ io.Writer }

func (nopCloser) Close() error { return nil }

// noInput is a genall.InputRule that reads nothing: the generators would
// read only a header file, which crdforge never gives them, so that the
// output stays controller-gen's for kubebuilder's Makefile line.
type noInput struct{}

func (noInput) OpenForRead(path string) (io.ReadCloser, error) {
	return nil, fmt.Errorf("crdforge generators read no files (asked for %s)", path)
}

// firstPackage is the package clause of the first root's first file.
func firstPackage(roots []*loader.Package) token.Pos {
	for _, r := range roots {
		if len(r.Syntax) > 0 {
			return r.Syntax[0].Package
		}
	}
	return token.NoPos
}

// at is path, relative to the run's directory, in dir.
func at(dir, name string) string { return filepath.Join(dir, name) }
