package objectcheck

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"sigs.k8s.io/yaml"
)

// Catalog is the CRDs objects are checked against, by group and kind, and
// the schemas readied from them so far.
type Catalog struct {
	crds    map[schema.GroupKind]*apiextensionsv1.CustomResourceDefinition
	schemas map[schema.GroupVersionKind]*Schema
}

// NewCatalog is a catalog of no CRDs; Add adds them.
func NewCatalog() *Catalog {
	return &Catalog{crds: map[schema.GroupKind]*apiextensionsv1.CustomResourceDefinition{}, schemas: map[schema.GroupVersionKind]*Schema{}}
}

// Add adds crd; another CRD of the same group and kind is an error.
func (c *Catalog) Add(crd *apiextensionsv1.CustomResourceDefinition) error {
	gk := schema.GroupKind{Group: crd.Spec.Group, Kind: crd.Spec.Names.Kind}
	if prev, ok := c.crds[gk]; ok && prev.Name != crd.Name {
		return fmt.Errorf("kind %s is in CRDs %s and %s", gk, prev.Name, crd.Name)
	}
	c.crds[gk] = crd
	return nil
}

// Defines reports whether a CRD of the catalog defines kind gk.
func (c *Catalog) Defines(gk schema.GroupKind) bool {
	_, ok := c.crds[gk]
	return ok
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

// DecodeCRDs returns the CustomResourceDefinitions among the YAML (or JSON)
// documents of b; other kinds (a kustomization, a Namespace) are skipped.
func DecodeCRDs(b []byte) ([]*apiextensionsv1.CustomResourceDefinition, error) {
	dec := utilyaml.NewYAMLReader(bufio.NewReader(bytes.NewReader(b)))
	var out []*apiextensionsv1.CustomResourceDefinition
	for {
		doc, err := dec.Read()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		var meta struct {
			APIVersion string `json:"apiVersion"`
			Kind       string `json:"kind"`
		}
		if err := yaml.Unmarshal(doc, &meta); err != nil {
			return nil, err
		}
		if meta.Kind != "CustomResourceDefinition" || !strings.HasPrefix(meta.APIVersion, apiextensionsv1.GroupName+"/") {
			continue
		}
		if meta.APIVersion != apiextensionsv1.SchemeGroupVersion.String() {
			return nil, fmt.Errorf("%s CustomResourceDefinition: only %s is supported", meta.APIVersion, apiextensionsv1.SchemeGroupVersion)
		}
		c := &apiextensionsv1.CustomResourceDefinition{}
		if err := yaml.Unmarshal(doc, c); err != nil {
			return nil, err
		}
		out = append(out, c)
	}
}
