package objectcheck

import (
	"fmt"
	"go/token"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/crdforge/crdforge/internal/diag"
	"github.com/crdforge/crdforge/internal/settings"
)

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

// NewReport is a report of no objects.
func NewReport() *Report { return &Report{Diags: diag.New(nil)} }

// Check checks d against its CRD in catalog, as an update of old when old
// is not nil, and adds its diagnostics, each at its field in d's file: an
// error for each reason the server would refuse d, a warning for each field
// it would drop. An object that cannot be checked (no CRD serves its kind
// and version, or old is at another version) is an error and counts as
// unchecked.
func (r *Report) Check(catalog *Catalog, d Document, old *Document) {
	gvk := (&unstructured.Unstructured{Object: d.Object}).GroupVersionKind()
	s, crd, err := catalog.Schema(gvk)
	if err != nil {
		r.at(d, "kind", diag.Error, "%s %s not checked: %v", gvk.Kind, Name(d.Object), err).
			Help("give the CRD that defines it: %s FILE (or generate it: crdforge generate)", settings.ValidateCRD.Flag())
		r.Unchecked++
		return
	}
	var oldObj map[string]any
	if old != nil {
		if ov := (&unstructured.Unstructured{Object: old.Object}).GroupVersionKind().Version; ov != gvk.Version {
			r.at(d, "apiVersion", diag.Error, "%s %s not checked: the old object is at %s, this one at %s", gvk.Kind, Name(d.Object), ov, gvk.Version).
				Note("the API server checks an update against the old object converted to the new one's version").
				Help("give %s the object as the cluster serves it at %s", settings.ValidateOld.Flag(), gvk.GroupVersion())
			r.Unchecked++
			return
		}
		oldObj = old.Object
	}
	res := s.Check(d.Object, oldObj)
	for _, e := range res.Errors {
		r.fieldError(d, e).Note("the API server would refuse %s %s (CRD %s, version %s)", gvk.Kind, Name(d.Object), crd, gvk.Version)
	}
	for _, p := range res.Pruned {
		r.at(d, p, diag.Warning, "%s: unknown field, which the API server would drop", p).
			Note("CRD %s's schema of version %s has no such field, and keeps no unknown fields here (x-kubernetes-preserve-unknown-fields)", crd, gvk.Version)
	}
	r.Checked = append(r.Checked, Checked{Doc: d, Result: res})
}

// Refused counts the objects checked that the server would refuse.
func (r *Report) Refused() int {
	n := 0
	for _, c := range r.Checked {
		if len(c.Result.Errors) > 0 {
			n++
		}
	}
	return n
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

// Name is how a diagnostic names an object: namespace/name, or name.
func Name(obj map[string]any) string {
	u := unstructured.Unstructured{Object: obj}
	if ns := u.GetNamespace(); ns != "" {
		return ns + "/" + u.GetName()
	}
	return u.GetName()
}
