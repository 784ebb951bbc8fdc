package jsonschema

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"

	"github.com/crdforge/crdforge/internal/output"
)

// thing is a CRD of group g.example.com, kind Thing, whose one version v1 has
// the schema root (JSON).
func thing(t *testing.T, root string) *apiextensionsv1.CustomResourceDefinition {
	t.Helper()
	var s apiextensionsv1.JSONSchemaProps
	if err := json.Unmarshal([]byte(root), &s); err != nil {
		t.Fatal(err)
	}
	return &apiextensionsv1.CustomResourceDefinition{Spec: apiextensionsv1.CustomResourceDefinitionSpec{
		Group: "g.example.com",
		Names: apiextensionsv1.CustomResourceDefinitionNames{Kind: "Thing"},
		Versions: []apiextensionsv1.CustomResourceDefinitionVersion{{Name: "v1", Served: true,
			Schema: &apiextensionsv1.CustomResourceValidation{OpenAPIV3Schema: &s}}},
	}}
}

// Each Kubernetes extension becomes what it means in JSON Schema, in the
// structural part of the schema and in value validations, and strictness
// (additionalProperties false) goes exactly where the API server prunes.
func TestOfSaysTheExtensionsInJSONSchema(t *testing.T) {
	for _, tt := range []struct {
		name       string
		spec, want string // the schema of the root's spec, before and after
	}{
		{"an object is strict", `{"type":"object","properties":{"a":{"type":"string"}}}`,
			`{"type":"object","additionalProperties":false,"properties":{"a":{"type":"string"}}}`},
		{"an object of no fields is strict: the server prunes every field", `{"type":"object"}`,
			`{"type":"object","additionalProperties":false}`},
		{"preserve-unknown-fields keeps unknown fields, its properties' objects are strict",
			`{"type":"object","x-kubernetes-preserve-unknown-fields":true,"properties":{"o":{"type":"object"}}}`,
			`{"type":"object","properties":{"o":{"type":"object","additionalProperties":false}}}`},
		{"a map's values say what it holds", `{"type":"object","additionalProperties":{"type":"object","properties":{"x":{"type":"integer"}}}}`,
			`{"type":"object","additionalProperties":{"type":"object","additionalProperties":false,"properties":{"x":{"type":"integer"}}}}`},
		{"an array's objects are strict", `{"type":"array","items":{"type":"object"}}`,
			`{"type":"array","items":{"type":"object","additionalProperties":false}}`},
		{"value validations are not pruned, so never strict", `{"type":"object","properties":{"a":{"type":"object"}},"anyOf":[{"properties":{"a":{"type":"object"}}}],"not":{"type":"object"}}`,
			`{"type":"object","additionalProperties":false,"properties":{"a":{"type":"object","additionalProperties":false}},"anyOf":[{"properties":{"a":{"type":"object"}}}],"not":{"type":"object"}}`},
		{"int-or-string alone", `{"x-kubernetes-int-or-string":true}`,
			`{"anyOf":[{"type":"integer"},{"type":"string"}]}`},
		{"int-or-string with controller-gen's anyOf", `{"x-kubernetes-int-or-string":true,"anyOf":[{"type":"integer"},{"type":"string"}],"pattern":"^a"}`,
			`{"anyOf":[{"type":"integer"},{"type":"string"}],"pattern":"^a"}`},
		{"int-or-string with another anyOf", `{"x-kubernetes-int-or-string":true,"anyOf":[{"minimum":1},{"pattern":"^a"}]}`,
			`{"anyOf":[{"minimum":1},{"pattern":"^a"}],"allOf":[{"anyOf":[{"type":"integer"},{"type":"string"}]}]}`},
		{"nullable type and enum", `{"type":"string","nullable":true,"enum":["a"]}`,
			`{"type":["string","null"],"enum":["a",null]}`},
		{"a nullable object is strict", `{"type":"object","nullable":true}`,
			`{"type":["object","null"],"additionalProperties":false}`},
		{"nullable int-or-string", `{"x-kubernetes-int-or-string":true,"nullable":true}`,
			`{"anyOf":[{"type":"integer"},{"type":"string"},{"type":"null"}]}`},
		{"a set's items are unique, a map list's need not be", `{"type":"object","properties":{"s":{"type":"array","x-kubernetes-list-type":"set","items":{"type":"string"}},"m":{"type":"array","x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["k"],"items":{"type":"object","properties":{"k":{"type":"string"}}}}}}`,
			`{"type":"object","additionalProperties":false,"properties":{"s":{"type":"array","uniqueItems":true,"items":{"type":"string"}},"m":{"type":"array","items":{"type":"object","additionalProperties":false,"properties":{"k":{"type":"string"}}}}}}`},
		{"an embedded resource keeps apiVersion, kind and any metadata", `{"type":"object","x-kubernetes-embedded-resource":true,"properties":{"spec":{"type":"object"}}}`,
			`{"type":"object","additionalProperties":false,"properties":{"apiVersion":{"type":"string"},"kind":{"type":"string"},"metadata":{"type":"object"},"spec":{"type":"object","additionalProperties":false}}}`},
		{"a metadata below an object's root is pruned as any field", `{"type":"object","properties":{"metadata":{"type":"object"}}}`,
			`{"type":"object","additionalProperties":false,"properties":{"metadata":{"type":"object","additionalProperties":false}}}`},
		{"CEL rules and other extensions go", `{"type":"string","x-kubernetes-validations":[{"rule":"self != ''"}],"x-kubernetes-map-type":"atomic"}`,
			`{"type":"string"}`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c := thing(t, `{"type":"object","properties":{"apiVersion":{"type":"string"},"kind":{"type":"string"},"metadata":{"type":"object"},"spec":`+tt.spec+`}}`)
			got, err := Of(c, &c.Spec.Versions[0])
			if err != nil {
				t.Fatal(err)
			}
			spec := got["properties"].(map[string]any)["spec"]
			var want any
			if err := json.Unmarshal([]byte(tt.want), &want); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(roundTrip(t, spec), want) {
				got, _ := json.Marshal(spec)
				t.Errorf("spec\n%s\nbecame\n%s\nwant\n%s", tt.spec, got, tt.want)
			}
		})
	}
}

// roundTrip is v through JSON, so that json.Numbers compare as numbers.
func roundTrip(t *testing.T, v any) any {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var out any
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// The root holds apiVersion and kind to the version's, requires them, keeps
// whatever metadata the server keeps (ObjectMeta's, not the schema's
// empty object), refuses fields the server prunes, and declares draft 4.
func TestOfHoldsTheRootToItsVersion(t *testing.T) {
	c := thing(t, `{"type":"object","required":["spec"],"properties":{"apiVersion":{"type":"string"},"metadata":{"type":"object"},"spec":{"type":"object","x-kubernetes-preserve-unknown-fields":true}}}`)
	got, err := Of(c, &c.Spec.Versions[0])
	if err != nil {
		t.Fatal(err)
	}
	want := `{"$comment":"Code generated by crdforge. DO NOT EDIT.","$schema":"http://json-schema.org/draft-04/schema#",` +
		`"type":"object","additionalProperties":false,"required":["spec","apiVersion","kind"],"properties":{` +
		`"apiVersion":{"type":"string","enum":["g.example.com/v1"]},"kind":{"type":"string","enum":["Thing"]},` +
		`"metadata":{"type":"object"},"spec":{"type":"object"}}}`
	var w any
	if err := json.Unmarshal([]byte(want), &w); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(roundTrip(t, got), w) {
		b, _ := json.Marshal(got)
		t.Errorf("root\n%s\nwant\n%s", b, want)
	}
}

// A schema file starts with crdforge's header, so that crdforge knows it
// its own (to overwrite it, and to delete it when its version goes), and
// is where kubeconform's template looks.
func TestMarshalStartsWithTheHeader(t *testing.T) {
	c := thing(t, `{"type":"object","description":"<a> & <b>"}`)
	b, err := Marshal(c, &c.Spec.Versions[0])
	if err != nil {
		t.Fatal(err)
	}
	if !output.IsOurs(b) {
		t.Errorf("the schema does not start with crdforge's header:\n%s", b)
	}
	if want := `"<a> & <b>"`; !json.Valid(b) || !strings.Contains(string(b), want) {
		t.Errorf("the schema is no JSON, or escapes its description (want %s):\n%s", want, b)
	}
	if got, want := Path(c, &c.Spec.Versions[0]), "g.example.com/thing_v1.json"; got != want {
		t.Errorf("path %s, want %s", got, want)
	}
}
