package validate

import (
	"fmt"
	"go/token"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/crdforge/crdforge/internal/diag"
)

// Options is what crdforge validate checks, and against what.
type Options struct {
	// Files hold the objects, YAML or JSON, any number a file.
	Files []string
	// CRDs are CRD files or directories of them.
	CRDs []string
	// Old hold the objects as they are now: an object of Files with the
	// same group, kind, namespace and name is checked as an update of it
	// (transition rules, ratcheting), the others as a create.
	Old []string
}

// Checked is one object and what the API server would make of it.
type Checked struct {
	Doc    Document
	Result Result
}

// Report is every object checked, and the diagnostics at their fields.
type Report struct {
	Checked []Checked
	// Unchecked counts the objects that could not be checked: no CRD
	// defines their kind, or the old object is at another version.
	Unchecked int
	Diags     *diag.List
}

// Run checks every object of opts.Files against its CRD. An error is a file
// or CRD that cannot be read; an object that cannot be checked (no CRD
// defines its kind) or that the server would refuse is a diagnostic.
func Run(opts Options) (*Report, error) {
	catalog, err := ReadCatalog(opts.CRDs)
	if err != nil {
		return nil, err
	}
	docs, err := readAll(opts.Files)
	if err != nil {
		return nil, err
	}
	olds, err := readAll(opts.Old)
	if err != nil {
		return nil, err
	}
	r := &Report{Diags: diag.New(nil)}
	byID := indexOld(olds)
	for _, d := range docs {
		if c, ok := r.check(catalog, d, byID[identity(d.Object)]); ok {
			r.Checked = append(r.Checked, c)
		} else {
			r.Unchecked++
		}
	}
	return r, nil
}

func readAll(files []string) ([]Document, error) {
	var all []Document
	for _, f := range files {
		docs, err := ReadDocuments(f)
		if err != nil {
			return nil, err
		}
		all = append(all, docs...)
	}
	return all, nil
}

// id is what makes an object the same object in another file.
type id struct {
	gk              schema.GroupKind
	namespace, name string
}

func identity(obj map[string]any) id {
	u := unstructured.Unstructured{Object: obj}
	return id{u.GroupVersionKind().GroupKind(), u.GetNamespace(), u.GetName()}
}

func indexOld(olds []Document) map[id]*Document {
	m := map[id]*Document{}
	for i := range olds {
		m[identity(olds[i].Object)] = &olds[i]
	}
	return m
}

// check checks d, as an update of old when there is one, and adds its
// diagnostics; false when d could not be checked.
func (r *Report) check(catalog *Catalog, d Document, old *Document) (Checked, bool) {
	gvk := (&unstructured.Unstructured{Object: d.Object}).GroupVersionKind()
	s, crd, err := catalog.Schema(gvk)
	if err != nil {
		r.at(d, "kind", diag.Error, "%s %s not checked: %v", gvk.Kind, name(d.Object), err).
			Help("give the CRD that defines it: --crd FILE (or generate it: crdforge generate)")
		return Checked{}, false
	}
	var oldObj map[string]any
	if old != nil {
		if ov := (&unstructured.Unstructured{Object: old.Object}).GroupVersionKind().Version; ov != gvk.Version {
			r.at(d, "apiVersion", diag.Error, "%s %s not checked: the old object is at %s, this one at %s", gvk.Kind, name(d.Object), ov, gvk.Version).
				Note("the API server checks an update against the old object converted to the new one's version").
				Help("give --old the object as the cluster serves it at %s", gvk.GroupVersion())
			return Checked{}, false
		}
		oldObj = old.Object
	}
	res := s.Check(d.Object, oldObj)
	for _, e := range res.Errors {
		r.fieldError(d, e).Note("the API server would refuse %s %s (CRD %s, version %s)", gvk.Kind, name(d.Object), crd, gvk.Version)
	}
	for _, p := range res.Pruned {
		r.at(d, p, diag.Warning, "%s: unknown field, which the API server would drop", p).
			Note("CRD %s's schema of version %s has no such field, and keeps no unknown fields here (x-kubernetes-preserve-unknown-fields)", crd, gvk.Version)
	}
	return Checked{Doc: d, Result: res}, true
}

// fieldError adds e at its field.
func (r *Report) fieldError(d Document, e *field.Error) *diag.Diagnostic {
	path := e.Field
	if path == "<nil>" { // the object itself: a rule of the root
		return r.at(d, "", diag.Error, "%s", e.ErrorBody())
	}
	return r.at(d, path, diag.Error, "%s", e.Error())
}

// at adds a diagnostic at the field path of d.
func (r *Report) at(d Document, path string, sev diag.Severity, format string, a ...any) *diag.Diagnostic {
	line, col := Locate(d.Node, path)
	return r.Diags.Add(diag.Diagnostic{
		Pos:      token.Position{Filename: d.File, Line: line, Column: col},
		Severity: sev,
		Msg:      fmt.Sprintf(format, a...),
		Field:    path,
	})
}

// name is how a diagnostic names an object: namespace/name, or name.
func name(obj map[string]any) string {
	u := unstructured.Unstructured{Object: obj}
	if ns := u.GetNamespace(); ns != "" {
		return ns + "/" + u.GetName()
	}
	return u.GetName()
}
