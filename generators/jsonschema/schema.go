package jsonschema

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"

	"github.com/crdforge/crdforge/internal/output"
)

// Draft is the JSON Schema dialect the schemas declare: draft 4, whose
// exclusiveMinimum and exclusiveMaximum are booleans as OpenAPI v3.0's
// are, so a CRD's bounds carry over as they are. It is kubeconform's
// default dialect, and one the YAML language server reads.
const Draft = "http://json-schema.org/draft-04/schema#"

// Marshal returns version v of c's JSON Schema as the file holds it:
// indented, keys sorted, crdforge's header (output.JSONHeader) its first key.
func Marshal(c *apiextensionsv1.CustomResourceDefinition, v *apiextensionsv1.CustomResourceDefinitionVersion) ([]byte, error) {
	s, err := Of(c, v)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false) // descriptions hold <, > and & as they are
	enc.SetIndent("", "  ")
	if err := enc.Encode(s); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// Of returns version v of c's JSON Schema, as a generic value: the
// version's openAPIV3Schema with the Kubernetes extensions turned into what
// they mean in JSON Schema (convert), apiVersion and kind held to the
// version's, and crdforge's header as its $comment.
func Of(c *apiextensionsv1.CustomResourceDefinition, v *apiextensionsv1.CustomResourceDefinitionVersion) (map[string]any, error) {
	s, err := generic(v.Schema.OpenAPIV3Schema)
	if err != nil {
		return nil, err
	}
	identify(s, c.Spec.Group+"/"+v.Name, c.Spec.Names.Kind)
	convert(s, true, true)
	header, err := generic(json.RawMessage("{" + output.JSONHeader + "}"))
	if err != nil {
		return nil, err
	}
	s["$comment"] = header["$comment"]
	s["$schema"] = Draft
	return s, nil
}

// generic is v's JSON as a generic value; numbers stay json.Numbers, so
// that a bound or a default prints as the CRD has it.
func generic(v any) (map[string]any, error) {
	raw, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	var s map[string]any
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	return s, dec.Decode(&s)
}

// identify holds the root's apiVersion and kind to the version's: the API
// server serves this version's schema to objects of that apiVersion and
// kind only, and refuses an object without them. Editors offer the values.
func identify(s map[string]any, apiVersion, kind string) {
	props := properties(s)
	for name, value := range map[string]string{"apiVersion": apiVersion, "kind": kind} {
		p, _ := props[name].(map[string]any)
		if p == nil {
			p = map[string]any{"type": "string"}
		}
		p["enum"] = []any{value}
		props[name] = p
	}
	required, _ := s["required"].([]any)
	for _, name := range []string{"apiVersion", "kind"} {
		if !contains(required, name) {
			required = append(required, name)
		}
	}
	s["required"] = required
}

// properties is s's properties, made when s has none.
func properties(s map[string]any) map[string]any {
	props, _ := s["properties"].(map[string]any)
	if props == nil {
		props = map[string]any{}
		s["properties"] = props
	}
	return props
}

func contains(list []any, value any) bool {
	for _, item := range list {
		if item == value {
			return true
		}
	}
	return false
}

// convert turns s, a node of a CRD's structural schema, into JSON Schema in
// place, and its children with it. pruned says the API server prunes
// unknown fields at s (it is in the structural part of the schema, not a
// value validation under allOf, anyOf, oneOf or not, nor an object's
// metadata, which ObjectMeta's rules keep); resource that s is an object's
// root, whose apiVersion, kind and metadata the server keeps whatever the
// schema says. The Kubernetes extensions go: they are not JSON Schema, and
// what they mean is said in JSON Schema's words.
func convert(s map[string]any, pruned, resource bool) {
	resource = resource || s["x-kubernetes-embedded-resource"] == true
	if resource {
		resourceFields(s)
	}
	if pruned {
		strict(s) // before allowNull, which makes an object's type a list
	}
	intOrString(s)
	if s["nullable"] == true {
		allowNull(s)
	}
	if s["x-kubernetes-list-type"] == "set" {
		s["uniqueItems"] = true // a set's items are unique scalars
	}
	for key := range s {
		if key == "nullable" || strings.HasPrefix(key, "x-kubernetes-") {
			delete(s, key)
		}
	}
	convertChildren(s, pruned, resource)
}

// convertChildren converts s's children: its properties, items and map
// values are pruned as s is; its value validations are not pruned at all.
func convertChildren(s map[string]any, pruned, resource bool) {
	props, _ := s["properties"].(map[string]any)
	for name, p := range props {
		if p, ok := p.(map[string]any); ok {
			convert(p, pruned && (!resource || name != "metadata"), false)
		}
	}
	for _, key := range []string{"items", "additionalProperties"} {
		if p, ok := s[key].(map[string]any); ok {
			convert(p, pruned, false)
		}
	}
	for _, key := range []string{"allOf", "anyOf", "oneOf"} {
		list, _ := s[key].([]any)
		for _, p := range list {
			if p, ok := p.(map[string]any); ok {
				convert(p, false, false)
			}
		}
	}
	if p, ok := s["not"].(map[string]any); ok {
		convert(p, false, false)
	}
}

// intOrStringTypes is what x-kubernetes-int-or-string admits: an integer
// or a string.
func intOrStringTypes() []any {
	return []any{map[string]any{"type": "integer"}, map[string]any{"type": "string"}}
}

// intOrString says in JSON Schema what x-kubernetes-int-or-string says: an
// integer or a string. controller-gen writes the same anyOf beside the
// extension, which then stays as it is; a schema with the extension alone
// gets it, and one whose anyOf says something else gets it in an allOf.
func intOrString(s map[string]any) {
	if s["x-kubernetes-int-or-string"] != true {
		return
	}
	anyOf, ok := s["anyOf"]
	switch {
	case !ok:
		s["anyOf"] = intOrStringTypes()
	case !reflect.DeepEqual(anyOf, intOrStringTypes()):
		allOf, _ := s["allOf"].([]any)
		s["allOf"] = append(allOf, map[string]any{"anyOf": intOrStringTypes()})
	}
}

// allowNull says in JSON Schema what nullable says: null is a value too.
// JSON Schema has no nullable, and its type and enum refuse null unless
// they name it; an int-or-string's anyOf gets null as one more choice.
func allowNull(s map[string]any) {
	if t, ok := s["type"].(string); ok {
		s["type"] = []any{t, "null"}
	}
	if enum, ok := s["enum"].([]any); ok && !contains(enum, nil) {
		s["enum"] = append(enum, nil)
	}
	if anyOf, ok := s["anyOf"].([]any); ok && s["type"] == nil {
		s["anyOf"] = append(anyOf, map[string]any{"type": "null"})
	}
}

// resourceFields gives an object's root the fields the API server keeps
// in every object, whatever its schema names: an embedded resource's
// schema may leave them out, and strict would then refuse them.
func resourceFields(s map[string]any) {
	if s["x-kubernetes-preserve-unknown-fields"] == true {
		return // nothing is refused there
	}
	props := properties(s)
	for name, typ := range map[string]string{"apiVersion": "string", "kind": "string", "metadata": "object"} {
		if _, ok := props[name]; !ok {
			props[name] = map[string]any{"type": typ}
		}
	}
}

// strict refuses the fields the API server would prune at s: an object's
// fields its properties do not name, unless x-kubernetes-preserve-unknown-fields
// keeps them. A map (additionalProperties) already says what its values
// are. Pruning drops such a field silently; a validator that refuses it
// tells the author before the field is lost.
func strict(s map[string]any) {
	if s["type"] != "object" || s["x-kubernetes-preserve-unknown-fields"] == true {
		return
	}
	if _, ok := s["additionalProperties"]; ok {
		return
	}
	s["additionalProperties"] = false
}
