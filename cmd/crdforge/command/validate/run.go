// Package validate is crdforge validate: objects of files checked against
// the CRDs of files, offline, through package objectcheck.
package validate

import (
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/crdforge/crdforge/internal/objectcheck"
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

// Run checks every object of opts.Files against its CRD. An error is a file
// or CRD that cannot be read; an object that cannot be checked (no CRD
// defines its kind) or that the server would refuse is a diagnostic.
func Run(opts Options) (*objectcheck.Report, error) {
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
	r := objectcheck.NewReport()
	byID := indexOld(olds)
	for _, d := range docs {
		r.Check(catalog, d, byID[identity(d.Object)])
	}
	return r, nil
}

func readAll(files []string) ([]objectcheck.Document, error) {
	var all []objectcheck.Document
	for _, f := range files {
		docs, err := objectcheck.ReadDocuments(f)
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

func indexOld(olds []objectcheck.Document) map[id]*objectcheck.Document {
	m := map[id]*objectcheck.Document{}
	for i := range olds {
		m[identity(olds[i].Object)] = &olds[i]
	}
	return m
}
