// Package samples checks kubebuilder's sample objects (config/samples, which
// `kubebuilder create api` scaffolds and `kubectl apply -k config/samples`
// applies) against the CRDs a run of crdforge generate has just made, in
// memory, before anything is written: a sample the new CRDs refuse is found
// when the API changes, not when someone applies it to a cluster.
package samples

import (
	"fmt"
	"go/token"
	"os"
	"path/filepath"
	"slices"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/crdforge/crdforge/internal/diag"
	"github.com/crdforge/crdforge/internal/objectcheck"
	"github.com/crdforge/crdforge/internal/output"
	"github.com/crdforge/crdforge/internal/settings"
)

// Dir is where kubebuilder scaffolds the samples, relative to the project.
const Dir = "config/samples"

// Files are the sample files of the project in dir, absolute and sorted:
// the YAML and JSON files of Dir (kubebuilder writes them there, beside
// their kustomization, without subdirectories). None when there is no Dir.
func Files(dir string) []string {
	entries, err := os.ReadDir(filepath.Join(dir, Dir))
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range entries {
		switch filepath.Ext(e.Name()) {
		case ".yaml", ".yml", ".json":
			if !e.IsDir() {
				out = append(out, filepath.Join(dir, Dir, e.Name()))
			}
		}
	}
	slices.Sort(out)
	return out
}

// Check checks every object of the samples of the project in dir whose
// group and kind a CRD of crds (the CRD generator's files) defines, as the
// API server would check its create (package objectcheck, as crdforge
// validate does), and adds the diagnostics to diags: a warning at each
// field the server would refuse or drop, and for a sample at a version the
// CRD does not serve. Warnings, not errors: kubebuilder scaffolds a sample
// whose spec is a TODO, which the first required field makes invalid, and
// generate must not stop there (its e2e test, TestKubebuilderProject). The other
// objects (the kustomization, kinds of other APIs) are not the run's to
// check, and a file that is not YAML objects is a warning: a sample is the
// project's own file, which no generator reads.
func Check(dir string, crds []output.File, diags *diag.List) {
	docs := read(Files(dir), diags)
	if len(docs) == 0 {
		return
	}
	catalog, ok := catalogOf(crds, diags)
	if !ok {
		return
	}
	rep := objectcheck.NewReport()
	for _, d := range docs {
		gvk := (&unstructured.Unstructured{Object: d.Object}).GroupVersionKind()
		if !catalog.Defines(gvk.GroupKind()) {
			continue
		}
		if _, crd, err := catalog.Schema(gvk); err != nil {
			diags.Add(at(d, "apiVersion", diag.Warning, "sample %s %s at %s: not checked", gvk.Kind, objectcheck.Name(d.Object), gvk.Version)).
				Note("%v: kubectl apply would refuse it", err).
				Help("move it to a version CRD %s serves, or remove it", crd)
			continue
		}
		rep.Check(catalog, d, nil)
	}
	for _, d := range rep.Diags.Items() {
		if d.Severity == diag.Error {
			d.Severity = diag.Warning
			d.Note("%s checks the samples against the CRDs it generates; %s turns that off", "crdforge generate", settings.ValidateSamples.FlagIs(false))
		}
		diags.Add(d)
	}
}

// read reads the documents of files; a file that cannot be read is a
// warning at it.
func read(files []string, diags *diag.List) []objectcheck.Document {
	var out []objectcheck.Document
	for _, f := range files {
		docs, err := objectcheck.ReadDocuments(f)
		if err != nil {
			diags.Add(diag.Diagnostic{Pos: token.Position{Filename: f}, Severity: diag.Warning, Msg: "sample not checked: not YAML objects"}).Note("%v", err)
			continue
		}
		out = append(out, docs...)
	}
	return out
}

// catalogOf is the catalog of the CRDs in files.
func catalogOf(files []output.File, diags *diag.List) (*objectcheck.Catalog, bool) {
	c := objectcheck.NewCatalog()
	for _, f := range files {
		if f.Delete {
			continue
		}
		crds, err := objectcheck.DecodeCRDs(f.Content)
		if err == nil {
			for _, crd := range crds {
				if err = c.Add(crd); err != nil {
					break
				}
			}
		}
		if err != nil {
			diags.Add(diag.Diagnostic{Pos: token.Position{Filename: f.Path}, Severity: diag.Error, Msg: "the generated CRD does not read back: " + err.Error()})
			return nil, false
		}
	}
	return c, true
}

// at is a diagnostic at the field path of d.
func at(d objectcheck.Document, path string, sev diag.Severity, format string, a ...any) diag.Diagnostic {
	line, col := objectcheck.Locate(d.Node, path)
	return diag.Diagnostic{Pos: token.Position{Filename: d.File, Line: line, Column: col}, Severity: sev, Msg: fmt.Sprintf(format, a...), Field: path}
}
