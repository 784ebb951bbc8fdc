package check

import (
	"cmp"
	"context"
	"fmt"
	"slices"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/rest"

	"github.com/crdforge/crdforge/internal/objectcheck"
)

// Objects is what --objects found: how many stored objects were checked,
// and each field of one that the new CRD refuses.
type Objects struct {
	// Checked counts the objects read, once per version they were read at.
	Checked int `json:"checked"`
	// Refused holds a field of an object each, sorted.
	Refused []RefusedObject `json:"refused"`
}

// RefusedObject is a stored object that the new CRD's schema of a version
// refuses at a field where the cluster's schema of that version accepts
// it, and why.
type RefusedObject struct {
	CRD       string `json:"crd"`
	Version   string `json:"version"`
	Namespace string `json:"namespace,omitempty"`
	Name      string `json:"name"`
	Field     string `json:"field"`
	Message   string `json:"message"`
}

// refusedCount counts the objects refused, at any field.
func (o *Objects) refusedCount() int {
	seen := map[[4]string]bool{}
	for _, r := range o.Refused {
		seen[[4]string{r.CRD, r.Version, r.Namespace, r.Name}] = true
	}
	return len(seen)
}

// Object is how the report names the object: namespace/name, or name.
func (o RefusedObject) Object() string {
	if o.Namespace == "" {
		return o.Name
	}
	return o.Namespace + "/" + o.Name
}

// ListPage is how many objects one list request asks for by default: a
// CRD with many objects is read in pages, as kubectl get reads it, not in
// one response the API server must hold whole.
const ListPage = 500

// StoredObjects reads from the cluster cfg points at every object of each
// CRD of old (the cluster's) at each version whose schema nw (the working
// tree's CRDs) changes, and checks it against the new schema as the API
// server checks a create (package objectcheck, as crdforge validate
// does). A field is refused when the new schema refuses it and the
// cluster's accepts it: a field the cluster's schema already refuses (an
// object stored before a rule, kept since by the server's ratcheting)
// fares no worse under the new CRD, and ratcheting keeps letting it through
// while it is unchanged. Each list request asks for page objects (0:
// ListPage).
func StoredObjects(ctx context.Context, cfg *rest.Config, old, nw []*apiextensionsv1.CustomResourceDefinition, page int64) (*Objects, error) {
	if page <= 0 {
		page = ListPage
	}
	dyn, err := dynamic.NewForConfig(cfg)
	if err != nil {
		return nil, err
	}
	byName := map[string]*apiextensionsv1.CustomResourceDefinition{}
	for _, c := range nw {
		byName[c.Name] = c
	}
	out := &Objects{Refused: []RefusedObject{}}
	for _, o := range old {
		n, ok := byName[o.Name]
		if !ok {
			continue
		}
		for _, v := range changedVersions(o, n) {
			if err := checkVersion(ctx, dyn, o, n, v, page, out); err != nil {
				return nil, err
			}
		}
	}
	slices.SortFunc(out.Refused, func(a, b RefusedObject) int {
		return cmp.Or(cmp.Compare(a.CRD, b.CRD), cmp.Compare(a.Version, b.Version), cmp.Compare(a.Namespace, b.Namespace),
			cmp.Compare(a.Name, b.Name), cmp.Compare(a.Field, b.Field), cmp.Compare(a.Message, b.Message))
	})
	return out, nil
}

// checkVersion checks every object of CRD old, read at version, against
// nw's schema of version, and adds what it refuses to out.
func checkVersion(ctx context.Context, dyn dynamic.Interface, old, nw *apiextensionsv1.CustomResourceDefinition, version string, page int64, out *Objects) error {
	was, err := objectcheck.NewSchema(old, version)
	if err != nil {
		return fmt.Errorf("the cluster's CRD %s: %w", old.Name, err)
	}
	is, err := objectcheck.NewSchema(nw, version)
	if err != nil {
		return fmt.Errorf("CRD %s: %w", nw.Name, err)
	}
	gvr := schema.GroupVersionResource{Group: old.Spec.Group, Version: version, Resource: old.Spec.Names.Plural}
	opts := metav1.ListOptions{Limit: page}
	for {
		list, err := dyn.Resource(gvr).List(ctx, opts)
		if err != nil {
			return fmt.Errorf("listing %s at %s: %w", old.Name, version, err)
		}
		for _, item := range list.Items {
			out.Checked++
			for _, e := range refused(was, is, item.Object) {
				out.Refused = append(out.Refused, RefusedObject{CRD: old.Name, Version: version,
					Namespace: item.GetNamespace(), Name: item.GetName(), Field: e.Field, Message: e.ErrorBody()})
			}
		}
		if opts.Continue = list.GetContinue(); opts.Continue == "" {
			return nil
		}
	}
}

// refused is what the new schema refuses of obj where the old one
// accepts it: an error of the new schema's check with no error of the same
// type at the same field in the old one's.
func refused(was, is *objectcheck.Schema, obj map[string]any) field.ErrorList {
	type at struct {
		field string
		typ   field.ErrorType
	}
	before := map[at]bool{}
	for _, e := range was.Check(obj, nil).Errors {
		before[at{e.Field, e.Type}] = true
	}
	var out field.ErrorList
	for _, e := range is.Check(obj, nil).Errors {
		if !before[at{e.Field, e.Type}] {
			out = append(out, e)
		}
	}
	return out
}

// changedVersions are the versions both old and nw serve whose schema nw
// changes, both defaulted as the API server defaults a CRD: only there can
// a stored object be refused now and not before. A version the cluster
// does not serve cannot be read; one nw no longer serves cannot be written.
func changedVersions(old, nw *apiextensionsv1.CustomResourceDefinition) []string {
	scheme := newUpdateValidator().scheme
	old, nw = old.DeepCopy(), nw.DeepCopy()
	scheme.Default(old)
	scheme.Default(nw)
	var out []string
	for _, ov := range old.Spec.Versions {
		for _, nv := range nw.Spec.Versions {
			if ov.Name == nv.Name && ov.Served && nv.Served && !equality.Semantic.DeepEqual(ov.Schema, nv.Schema) {
				out = append(out, ov.Name)
			}
		}
	}
	return out
}
