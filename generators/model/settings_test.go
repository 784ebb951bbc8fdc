package model

import (
	"testing"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	"sigs.k8s.io/controller-tools/pkg/crd"
)

// identicalByCopy is how schemasIdentical compared two schemas before:
// copies of both with every description cleared by controller-tools.
func identicalByCopy(a, b *apiextensionsv1.JSONSchemaProps) bool {
	a, b = a.DeepCopy(), b.DeepCopy()
	crd.TruncateDescription(a, 0)
	crd.TruncateDescription(b, 0)
	return equality.Semantic.DeepEqual(a, b)
}

// TestSameButDescriptionsIsTruncateAndCompare: comparing in place gives what
// clearing the descriptions of copies and comparing gives, for a change of a
// description or of a type in every place a schema holds sub-schemas.
func TestSameButDescriptionsIsTruncateAndCompare(t *testing.T) {
	leaf := func(typ string) apiextensionsv1.JSONSchemaProps {
		return apiextensionsv1.JSONSchemaProps{Type: typ, Description: "a leaf"}
	}
	base := func() *apiextensionsv1.JSONSchemaProps {
		s := &apiextensionsv1.JSONSchemaProps{
			Type: "object", Description: "root",
			Properties:           map[string]apiextensionsv1.JSONSchemaProps{"a": leaf("string"), "b": leaf("integer")},
			PatternProperties:    map[string]apiextensionsv1.JSONSchemaProps{"^p": leaf("string")},
			Definitions:          map[string]apiextensionsv1.JSONSchemaProps{"d": leaf("string")},
			AllOf:                []apiextensionsv1.JSONSchemaProps{leaf("string")},
			OneOf:                []apiextensionsv1.JSONSchemaProps{leaf("string")},
			AnyOf:                []apiextensionsv1.JSONSchemaProps{leaf("string")},
			Not:                  &apiextensionsv1.JSONSchemaProps{Type: "string", Description: "not"},
			Items:                &apiextensionsv1.JSONSchemaPropsOrArray{Schema: &apiextensionsv1.JSONSchemaProps{Type: "string", Description: "item"}, JSONSchemas: []apiextensionsv1.JSONSchemaProps{leaf("string")}},
			AdditionalProperties: &apiextensionsv1.JSONSchemaPropsOrBool{Allows: true, Schema: &apiextensionsv1.JSONSchemaProps{Type: "string", Description: "ap"}},
			AdditionalItems:      &apiextensionsv1.JSONSchemaPropsOrBool{Allows: true, Schema: &apiextensionsv1.JSONSchemaProps{Type: "string", Description: "ai"}},
			Dependencies: apiextensionsv1.JSONSchemaDependencies{
				"s": {Schema: &apiextensionsv1.JSONSchemaProps{Type: "string", Description: "dep"}},
				"p": {Property: []string{"a"}},
			},
		}
		return s
	}
	type edit func(s *apiextensionsv1.JSONSchemaProps, desc bool)
	set := func(p *apiextensionsv1.JSONSchemaProps, desc bool) {
		if desc {
			p.Description = "changed"
		} else {
			p.Type = "boolean"
		}
	}
	inMap := func(m map[string]apiextensionsv1.JSONSchemaProps, k string, desc bool) {
		v := m[k]
		set(&v, desc)
		m[k] = v
	}
	places := map[string]edit{
		"root":                 func(s *apiextensionsv1.JSONSchemaProps, d bool) { set(s, d) },
		"properties":           func(s *apiextensionsv1.JSONSchemaProps, d bool) { inMap(s.Properties, "b", d) },
		"patternProperties":    func(s *apiextensionsv1.JSONSchemaProps, d bool) { inMap(s.PatternProperties, "^p", d) },
		"definitions":          func(s *apiextensionsv1.JSONSchemaProps, d bool) { inMap(s.Definitions, "d", d) },
		"allOf":                func(s *apiextensionsv1.JSONSchemaProps, d bool) { set(&s.AllOf[0], d) },
		"oneOf":                func(s *apiextensionsv1.JSONSchemaProps, d bool) { set(&s.OneOf[0], d) },
		"anyOf":                func(s *apiextensionsv1.JSONSchemaProps, d bool) { set(&s.AnyOf[0], d) },
		"not":                  func(s *apiextensionsv1.JSONSchemaProps, d bool) { set(s.Not, d) },
		"items":                func(s *apiextensionsv1.JSONSchemaProps, d bool) { set(s.Items.Schema, d) },
		"items array":          func(s *apiextensionsv1.JSONSchemaProps, d bool) { set(&s.Items.JSONSchemas[0], d) },
		"additionalProperties": func(s *apiextensionsv1.JSONSchemaProps, d bool) { set(s.AdditionalProperties.Schema, d) },
		"additionalItems":      func(s *apiextensionsv1.JSONSchemaProps, d bool) { set(s.AdditionalItems.Schema, d) },
		"dependencies":         func(s *apiextensionsv1.JSONSchemaProps, d bool) { set(s.Dependencies["s"].Schema, d) },
	}
	for name, e := range places {
		for _, desc := range []bool{true, false} {
			b := base()
			e(b, desc)
			want := identicalByCopy(base(), b)
			if want != desc {
				t.Fatalf("%s (description %v): the copy-and-truncate comparison says %v", name, desc, want)
			}
			if got := sameButDescriptions(base(), b); got != want {
				t.Errorf("%s (description changed: %v): sameButDescriptions = %v, want %v", name, desc, got, want)
			}
		}
	}
	// Other differences than a sub-schema's: presence, allows, a
	// dependency's properties; nil and empty alike, as Semantic has them.
	others := map[string]func(s *apiextensionsv1.JSONSchemaProps){
		"no items":           func(s *apiextensionsv1.JSONSchemaProps) { s.Items = nil },
		"allows":             func(s *apiextensionsv1.JSONSchemaProps) { s.AdditionalProperties.Allows = false },
		"no additionalItems": func(s *apiextensionsv1.JSONSchemaProps) { s.AdditionalItems = nil },
		"dependency property": func(s *apiextensionsv1.JSONSchemaProps) {
			s.Dependencies["p"] = apiextensionsv1.JSONSchemaPropsOrStringArray{Property: []string{"b"}}
		},
		"one property less": func(s *apiextensionsv1.JSONSchemaProps) { delete(s.Properties, "a") },
		"property renamed": func(s *apiextensionsv1.JSONSchemaProps) {
			s.Properties["c"] = s.Properties["a"]
			delete(s.Properties, "a")
		},
		"empty definitions": func(s *apiextensionsv1.JSONSchemaProps) { s.Definitions = map[string]apiextensionsv1.JSONSchemaProps{} },
		"nil and empty":     func(s *apiextensionsv1.JSONSchemaProps) { s.Required = []string{} },
		"required":          func(s *apiextensionsv1.JSONSchemaProps) { s.Required = []string{"a"} },
		"not nil":           func(s *apiextensionsv1.JSONSchemaProps) { s.Not = nil },
		"one allOf more":    func(s *apiextensionsv1.JSONSchemaProps) { s.AllOf = append(s.AllOf, leaf("string")) },
		"dependency schema nil": func(s *apiextensionsv1.JSONSchemaProps) {
			s.Dependencies["s"] = apiextensionsv1.JSONSchemaPropsOrStringArray{}
		},
		"nested description only": func(s *apiextensionsv1.JSONSchemaProps) { s.Items.Schema.Description = "" },
	}
	for name, e := range others {
		b := base()
		e(b)
		if got, want := sameButDescriptions(base(), b), identicalByCopy(base(), b); got != want {
			t.Errorf("%s: sameButDescriptions = %v, want %v", name, got, want)
		}
	}
}
