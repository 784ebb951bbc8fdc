package check

import (
	"strings"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"sigs.k8s.io/crdify/pkg/validations"

	"github.com/crdforge/crdforge/generators/crd"
)

// A property is deprecated when a line of its description starts with
// "Deprecated:", the paragraph +crdforge:deprecated appends (and Go's and
// Kubernetes' own convention for a deprecated field's doc comment). The
// signal lives in the CRD itself, in a field every API server keeps as it
// is: check reads it from a baseline of plain CRD files, a git revision's
// generated CRDs or a cluster's alike, without an x-kubernetes- extension
// the API server would refuse.
var deprecatedLine = strings.TrimSpace(crd.DeprecatedPrefix)

// deprecationOf is the text of a description's "Deprecated:" line, and
// whether it has one.
func deprecationOf(desc string) (string, bool) {
	for line := range strings.Lines(desc) {
		if rest, ok := strings.CutPrefix(line, deprecatedLine); ok {
			return strings.TrimSpace(rest), true
		}
	}
	return "", false
}

// deprecatedProps lists, by version and crdify's property path, the
// properties of c that are deprecated, themselves or below a deprecated
// ancestor (a deprecated struct's fields go with it), with the text that
// deprecates them.
func deprecatedProps(c *apiextensionsv1.CustomResourceDefinition) map[string]map[string]string {
	out := map[string]map[string]string{}
	for _, v := range c.Spec.Versions {
		if v.Schema == nil {
			continue
		}
		props := map[string]string{}
		validations.SchemaHas(v.Schema.OpenAPIV3Schema, field.NewPath("^"), field.NewPath("^"), nil,
			func(p *apiextensionsv1.JSONSchemaProps, _, simple *field.Path, ancestry []*apiextensionsv1.JSONSchemaProps) bool {
				for _, a := range append(ancestry, p) {
					if text, ok := deprecationOf(a.Description); ok {
						props[simple.String()] = text
						break
					}
				}
				return false
			})
		if len(props) > 0 {
			out[v.Name] = props
		}
	}
	return out
}

// deprecateOnly turns crdify's description findings about a description
// that only gained a "Deprecated:" line into fieldDeprecated: the change a
// project makes to announce a removal, which breaks no client. Each finding
// is of one version (its old and new self) or of a pair of served
// versions of nw ("v1beta1 -> v1").
func deprecateOnly(old, nw *apiextensionsv1.CustomResourceDefinition, fs []Finding) {
	for i, f := range fs {
		if f.Rule != "description" {
			continue
		}
		before, after := propertyOf(old, f.Version, f.Path), propertyOf(nw, f.Version, f.Path)
		if from, to, ok := cutPair(f.Version); ok {
			before, after = propertyOf(nw, from, f.Path), propertyOf(nw, to, f.Path)
		}
		if before == nil || after == nil {
			continue
		}
		text, ok := deprecationAdded(before.Description, after.Description)
		if !ok {
			continue
		}
		fs[i].Rule = "fieldDeprecated"
		fs[i].Message = f.Message + "; only a deprecation was added (Deprecated: " + text + "): clients are warned, none breaks"
	}
}

// deprecationAdded reports whether after is before with a "Deprecated:"
// paragraph added at its end, and that paragraph's text.
func deprecationAdded(before, after string) (string, bool) {
	if _, was := deprecationOf(before); was {
		return "", false
	}
	rest := after
	if before != "" {
		var ok bool
		if rest, ok = strings.CutPrefix(after, before+"\n\n"); !ok {
			return "", false
		}
	}
	text, ok := strings.CutPrefix(rest, crd.DeprecatedPrefix)
	return text, ok && !strings.Contains(text, "\n")
}

// propertyOf is the property at crdify's path in version of c, or nil.
func propertyOf(c *apiextensionsv1.CustomResourceDefinition, version, path string) *apiextensionsv1.JSONSchemaProps {
	v := validations.GetCRDVersionByName(c, version)
	if v == nil || v.Schema == nil {
		return nil
	}
	var found *apiextensionsv1.JSONSchemaProps
	validations.SchemaHas(v.Schema.OpenAPIV3Schema, field.NewPath("^"), field.NewPath("^"), nil,
		func(p *apiextensionsv1.JSONSchemaProps, _, simple *field.Path, _ []*apiextensionsv1.JSONSchemaProps) bool {
			if simple.String() == path {
				// A copy: p is crdify's, from a pool, reused once the
				// walk returns.
				c := *p
				found = &c
				return true
			}
			return false
		})
	return found
}
