package validate

import (
	"fmt"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/crdforge/crdforge/cmd/crdforge/command/check"
)

// Catalog is the CRDs objects are checked against, by group and kind, and
// the schemas readied from them so far.
type Catalog struct {
	crds    map[schema.GroupKind]*apiextensionsv1.CustomResourceDefinition
	schemas map[schema.GroupVersionKind]*Schema
}

// ReadCatalog reads the CRDs of every path, a file or a directory (every
// .yaml, .yml and .json file under it), as crdforge check reads a baseline.
func ReadCatalog(paths []string) (*Catalog, error) {
	c := &Catalog{crds: map[schema.GroupKind]*apiextensionsv1.CustomResourceDefinition{}, schemas: map[schema.GroupVersionKind]*Schema{}}
	for _, p := range paths {
		crds, err := check.ReadCRDs(p)
		if err != nil {
			return nil, err
		}
		for _, crd := range crds {
			gk := schema.GroupKind{Group: crd.Spec.Group, Kind: crd.Spec.Names.Kind}
			if prev, ok := c.crds[gk]; ok && prev.Name != crd.Name {
				return nil, fmt.Errorf("%s: kind %s is in CRDs %s and %s", p, gk, prev.Name, crd.Name)
			}
			c.crds[gk] = crd
		}
	}
	return c, nil
}

// Schema is the schema that objects of gvk are checked against, and the
// name of its CRD; an error says why there is none.
func (c *Catalog) Schema(gvk schema.GroupVersionKind) (*Schema, string, error) {
	crd, ok := c.crds[gvk.GroupKind()]
	if !ok {
		return nil, "", fmt.Errorf("no CRD defines kind %s", gvk.GroupKind())
	}
	if s, ok := c.schemas[gvk]; ok {
		return s, crd.Name, nil
	}
	s, err := NewSchema(crd, gvk.Version)
	if err != nil {
		return nil, crd.Name, err
	}
	c.schemas[gvk] = s
	return s, crd.Name, nil
}
