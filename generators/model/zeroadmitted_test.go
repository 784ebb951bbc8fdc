package model

import (
	"encoding/json"
	"testing"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
)

// TestAdmitsZero: whether the API server's validation of a field's schema
// lets a client write the zero the field drops, for each shape and the
// keywords that refuse it; only a zero a client can write is reported.
func TestAdmitsZero(t *testing.T) {
	spec := shapesSpec(t)
	cases := []struct {
		field, schema, zero string
		admits              bool
	}{
		{"Str", `{"type":"string"}`, `""`, true},
		{"Str", `{"type":"string","enum":["Allow","Forbid"]}`, `""`, false},
		{"Str", `{"type":"string","enum":["","Allow"]}`, `""`, true},
		{"Str", `{"type":"string","minLength":1}`, `""`, false},
		{"Str", `{"type":"string","pattern":"^[a-z]+$"}`, `""`, false},
		{"Str", `{"type":"string","pattern":"^[a-z]*$"}`, `""`, true},
		{"Str", `{"type":"string","format":"date-time"}`, `""`, false},
		{"Str", `{"type":"string","format":"an-unknown-format"}`, `""`, true},                       // the server strips what it does not know
		{"Str", `{"type":"string","x-kubernetes-validations":[{"rule":"self != ''"}]}`, `""`, true}, // CEL aside
		{"Int", `{"type":"integer","format":"int32"}`, "0", true},
		{"Int", `{"type":"integer","minimum":1}`, "0", false},
		{"Int", `{"type":"integer","minimum":0}`, "0", true},
		{"Int", `{"type":"integer","minimum":0,"exclusiveMinimum":true}`, "0", false},
		{"Int", `{"type":"integer","maximum":-1}`, "0", false},
		{"Int", `{"type":"integer","enum":[1,2,3]}`, "0", false},
		{"Float", `{"type":"number"}`, "0", true},
		{"Float", `{"type":"number","minimum":1}`, "0", false},
		{"Bool", `{"type":"boolean"}`, "false", true},
		{"Bool", `{"type":"boolean","enum":[true]}`, "false", false},
		{"Slice", `{"type":"array","items":{"type":"string"}}`, "[]", true},
		{"Slice", `{"type":"array","items":{"type":"string"},"minItems":1}`, "[]", false},
		{"Bytes", `{"type":"string","format":"byte"}`, `""`, false}, // the server's byte format refuses ""
		{"Map", `{"type":"object","additionalProperties":{"type":"string"}}`, "{}", true},
		{"Map", `{"type":"object","additionalProperties":{"type":"string"},"minProperties":1}`, "{}", false},
		{"Struct", `{"type":"object","properties":{"a":{"type":"integer"}}}`, "{}", true},
		{"Struct", `{"type":"object","properties":{"a":{"type":"integer"}},"required":["a"]}`, "{}", false},
		// [] and [0,0] both read as the zero array: either will do.
		{"Arr", `{"type":"array","items":{"type":"integer"},"minItems":2}`, "[]", true},
		{"Arr", `{"type":"array","items":{"type":"integer","minimum":1},"minItems":2}`, "[]", false},
	}
	for _, c := range cases {
		var prop apiextensionsv1.JSONSchemaProps
		if err := json.Unmarshal([]byte(c.schema), &prop); err != nil {
			t.Fatalf("%s: %v", c.schema, err)
		}
		if got := admitsZero(&prop, fieldNamed(t, spec, c.field).Type(), c.zero); got != c.admits {
			t.Errorf("%s %s: admits %s = %v, want %v", c.field, c.schema, c.zero, got, c.admits)
		}
	}
}
