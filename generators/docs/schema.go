package docs

import (
	"slices"
	"strings"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"

	"github.com/crdforge/crdforge/generators/model"
)

// property is one field of a version's schema.
type property struct {
	// Path is the field's JSON path: spec.parts[*].name, where [*] stands
	// for any item of a list or any value of a map (crdify's notation,
	// which check's findings and the deprecation policy use too).
	Path     string
	Schema   *apiextensionsv1.JSONSchemaProps
	Required bool
}

// objectMeta are the root properties every kind has, the same in every
// version: documenting them would only repeat Kubernetes' own reference.
var objectMeta = []string{"apiVersion", "kind", "metadata"}

// schemaOf is version's schema as controller-tools built it for the kind's
// CRD (the model's, before crdforge adds its "Deprecated:" paragraphs, which
// the pages show in a column of their own), or nil.
func schemaOf(k *model.Kind, version string) *apiextensionsv1.JSONSchemaProps {
	if k.CRD == nil {
		return nil
	}
	for _, v := range k.CRD.Spec.Versions {
		if v.Name == version && v.Schema != nil {
			return v.Schema.OpenAPIV3Schema
		}
	}
	return nil
}

// properties lists the fields of a root schema, depth first, each level
// sorted by name (the schema keeps no declaration order; kubectl explain
// sorts the same way), ObjectMeta's left out.
func properties(root *apiextensionsv1.JSONSchemaProps) []property {
	if root == nil {
		return nil
	}
	var out []property
	walkProperties(root, "", func(p property) {
		if !slices.Contains(objectMeta, p.Path) && !slices.ContainsFunc(objectMeta, func(m string) bool { return strings.HasPrefix(p.Path, m+".") }) {
			out = append(out, p)
		}
	})
	return out
}

// walkProperties calls visit for every property below s, whose path is at.
func walkProperties(s *apiextensionsv1.JSONSchemaProps, at string, visit func(property)) {
	names := make([]string, 0, len(s.Properties))
	for name := range s.Properties {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		child := s.Properties[name]
		p := property{Path: join(at, name), Schema: &child, Required: slices.Contains(s.Required, name)}
		visit(p)
		walkProperties(&child, p.Path, visit)
		if inner := elemSchema(&child); inner != nil {
			walkProperties(inner, p.Path+"[*]", visit)
		}
	}
}

// elemSchema is the schema of a list's items or a map's values, or nil.
func elemSchema(s *apiextensionsv1.JSONSchemaProps) *apiextensionsv1.JSONSchemaProps {
	switch {
	case s.Items != nil && s.Items.Schema != nil:
		return s.Items.Schema
	case s.AdditionalProperties != nil && s.AdditionalProperties.Schema != nil:
		return s.AdditionalProperties.Schema
	}
	return nil
}

// join appends name to the dotted path at; an empty name (an inlined
// struct) adds nothing.
func join(at, name string) string {
	switch {
	case name == "":
		return at
	case at == "":
		return name
	}
	return at + "." + name
}

// ancestors lists the paths that enclose path, nearest first:
// spec.parts[*].name → spec.parts[*], spec.parts, spec.
func ancestors(path string) []string {
	var out []string
	for {
		i := strings.LastIndexAny(path, ".[")
		if i < 0 {
			return out
		}
		path = path[:i]
		out = append(out, path)
	}
}
