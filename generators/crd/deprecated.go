package crd

import (
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"

	"github.com/crdforge/crdforge/generators/model"
)

// DeprecatedPrefix starts the paragraph of a property's description that
// says the property is deprecated: Go's and Kubernetes' own convention
// ("Deprecated: use X"), which kubectl explain shows as it is. crdforge
// check reads it back from a baseline's CRD (a git revision's or plain CRD
// files) to tell a deprecated field's removal from any other.
const DeprecatedPrefix = "Deprecated: "

// markDeprecated appends a "Deprecated: <warning>" paragraph to the
// description of every field the kind deprecates, in c, a copy of the
// kind's CRD. It comes after controller-tools' description and after
// crd:maxDescLen has cut it, so the paragraph is always whole.
func markDeprecated(c *apiextensionsv1.CustomResourceDefinition, fields []*model.DeprecatedField) {
	for _, f := range fields {
		for i := range c.Spec.Versions {
			v := &c.Spec.Versions[i]
			if v.Name != f.Version.Name || v.Schema == nil || v.Schema.OpenAPIV3Schema == nil {
				continue
			}
			editProperty(v.Schema.OpenAPIV3Schema, f.Path, func(p *apiextensionsv1.JSONSchemaProps) {
				note := DeprecatedPrefix + f.Warning
				if p.Description != "" {
					note = p.Description + "\n\n" + note
				}
				p.Description = note
			})
		}
	}
}

// editProperty calls edit on the property at path below p, if there is
// one. Properties are values in their parents' maps: each is edited in a
// copy that goes back in its place.
func editProperty(p *apiextensionsv1.JSONSchemaProps, path []string, edit func(*apiextensionsv1.JSONSchemaProps)) {
	if len(path) == 0 {
		edit(p)
		return
	}
	child, ok := p.Properties[path[0]]
	if !ok {
		return
	}
	editProperty(&child, path[1:], edit)
	p.Properties[path[0]] = child
}
