package plan

import (
	"testing"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
)

// TestFieldKeywordsKeepsWhatNarrowingReads: the narrowing check keeps, per
// struct type, the keywords of its fields it reads (enum, bounds, length,
// required) and none of the schemas nested below them, which a flattened
// schema holds whole and which made a large API group's peak memory.
func TestFieldKeywordsKeepsWhatNarrowingReads(t *testing.T) {
	lo, hi, minLen := 1.0, 10.0, int64(1)
	nested := apiextensionsv1.JSONSchemaProps{Type: "object", Properties: map[string]apiextensionsv1.JSONSchemaProps{"deep": {Type: "string"}}}
	st := apiextensionsv1.JSONSchemaProps{
		Type:     "object",
		Required: []string{"mode"},
		Properties: map[string]apiextensionsv1.JSONSchemaProps{
			"mode":     {Type: "string", Enum: []apiextensionsv1.JSON{{Raw: []byte(`"A"`)}}, MinLength: &minLen, Description: "the mode"},
			"replicas": {Type: "integer", Minimum: &lo, Maximum: &hi, ExclusiveMaximum: true},
			"template": nested,
			"items":    {Type: "array", Items: &apiextensionsv1.JSONSchemaPropsOrArray{Schema: &nested}},
			"labels":   {Type: "object", AdditionalProperties: &apiextensionsv1.JSONSchemaPropsOrBool{Schema: &nested}},
			"choice":   {AllOf: []apiextensionsv1.JSONSchemaProps{nested}, XValidations: apiextensionsv1.ValidationRules{{Rule: "self == self"}}},
		},
	}
	got := fieldKeywords(st)
	if len(got.Required) != 1 || got.Required[0] != "mode" {
		t.Errorf("required = %v, want [mode]", got.Required)
	}
	mode := got.Properties["mode"]
	if len(mode.Enum) != 1 || mode.MinLength == nil || *mode.MinLength != 1 || mode.Type != "string" {
		t.Errorf("mode lost a keyword the check reads: %+v", mode)
	}
	replicas := got.Properties["replicas"]
	if replicas.Minimum == nil || *replicas.Minimum != 1 || replicas.Maximum == nil || *replicas.Maximum != 10 || !replicas.ExclusiveMaximum {
		t.Errorf("replicas lost its bounds: %+v", replicas)
	}
	for name, prop := range got.Properties {
		if prop.Properties != nil || prop.Items != nil || prop.AdditionalProperties != nil || prop.AllOf != nil ||
			prop.XValidations != nil || prop.Description != "" {
			t.Errorf("%s keeps what the narrowing check never reads: %+v", name, prop)
		}
	}
	if len(got.Properties) != len(st.Properties) {
		t.Errorf("got %d properties, want %d", len(got.Properties), len(st.Properties))
	}
}
