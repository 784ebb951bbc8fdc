package docs

import (
	"fmt"
	"strings"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"

	"github.com/crdforge/crdforge/generators/model"
)

// fieldTable prints the table of version v's fields: what the API server
// validates (the CRD's schema, as the CRD generator has it) and what
// +crdforge:deprecated says of each field.
func fieldTable(b *strings.Builder, k *model.Kind, v *model.Version) {
	props := properties(schemaOf(k, v.Name))
	if len(props) == 0 {
		b.WriteString("No fields beyond `apiVersion`, `kind` and `metadata`.\n")
		return
	}
	deprecated := map[string]string{}
	for _, f := range k.DeprecatedFields {
		if f.Version == v {
			deprecated[f.JSONPath()] = f.Warning
		}
	}
	b.WriteString("| Field | Type | Required | Default | Validation | Description | Deprecation |\n")
	b.WriteString("| --- | --- | --- | --- | --- | --- | --- |\n")
	for _, p := range props {
		required := ""
		if p.Required {
			required = "yes"
		}
		cells := []string{code(p.Path), escape(typeName(p.Schema)), required, defaultOf(p.Schema),
			strings.Join(validations(p.Schema), "; "), escape(p.Schema.Description), escape(deprecated[p.Path])}
		b.WriteString("| " + strings.Join(cells, " | ") + " |\n")
	}
}

// typeName says what a property holds: its OpenAPI type and format, a
// list's or map's element type, or what Kubernetes' extensions make of it.
func typeName(s *apiextensionsv1.JSONSchemaProps) string {
	switch {
	case s.XIntOrString:
		return "integer or string"
	case s.Type == "array":
		if inner := elemSchema(s); inner != nil {
			return "[]" + typeName(inner)
		}
		return "array"
	case s.Type == "object" && s.AdditionalProperties != nil && s.AdditionalProperties.Schema != nil:
		return "map[string]" + typeName(s.AdditionalProperties.Schema)
	case s.Type == "" && s.XPreserveUnknownFields != nil && *s.XPreserveUnknownFields:
		return "any"
	case s.Type == "object" && s.XPreserveUnknownFields != nil && *s.XPreserveUnknownFields && len(s.Properties) == 0:
		return "object (free-form)"
	case s.Format != "":
		return s.Type + " (" + s.Format + ")"
	}
	return s.Type
}

// defaultOf is a property's default as JSON, in a code span, or "".
func defaultOf(s *apiextensionsv1.JSONSchemaProps) string {
	if s.Default == nil {
		return ""
	}
	return code(string(s.Default.Raw))
}

// validations says in words what the schema checks of a property's value,
// beyond its type, in a fixed order, each ready for a table cell.
func validations(s *apiextensionsv1.JSONSchemaProps) []string {
	var out []string
	if len(s.Enum) > 0 {
		var vals []string
		for _, e := range s.Enum {
			vals = append(vals, code(string(e.Raw)))
		}
		out = append(out, "one of "+strings.Join(vals, ", "))
	}
	if r := numberRange(s); r != "" {
		out = append(out, r)
	}
	if s.MultipleOf != nil {
		out = append(out, fmt.Sprintf("a multiple of %v", *s.MultipleOf))
	}
	if r := countRange("length", s.MinLength, s.MaxLength); r != "" {
		out = append(out, r)
	}
	if s.Pattern != "" {
		out = append(out, "pattern "+code(s.Pattern))
	}
	if r := countRange("items", s.MinItems, s.MaxItems); r != "" {
		out = append(out, r)
	}
	if r := countRange("properties", s.MinProperties, s.MaxProperties); r != "" {
		out = append(out, r)
	}
	if s.UniqueItems {
		out = append(out, "unique items")
	}
	if s.XListType != nil && *s.XListType == "map" && len(s.XListMapKeys) > 0 {
		out = append(out, "items unique by "+strings.Join(s.XListMapKeys, ", "))
	}
	if s.XListType != nil && *s.XListType == "set" {
		out = append(out, "a set")
	}
	for _, r := range s.XValidations {
		rule := "rule " + code(r.Rule)
		if r.Message != "" {
			rule += " (" + escape(r.Message) + ")"
		}
		out = append(out, rule)
	}
	return out
}

// numberRange says what a number's minimum and maximum allow.
func numberRange(s *apiextensionsv1.JSONSchemaProps) string {
	bound := func(v float64, exclusive bool, inclusiveWord, exclusiveWord string) string {
		if exclusive {
			return fmt.Sprintf("%s %v", exclusiveWord, v)
		}
		return fmt.Sprintf("%s %v", inclusiveWord, v)
	}
	switch {
	case s.Minimum != nil && s.Maximum != nil && !s.ExclusiveMinimum && !s.ExclusiveMaximum:
		return fmt.Sprintf("%v to %v", *s.Minimum, *s.Maximum)
	case s.Minimum != nil && s.Maximum != nil:
		return bound(*s.Minimum, s.ExclusiveMinimum, "at least", "more than") + ", " + bound(*s.Maximum, s.ExclusiveMaximum, "at most", "less than")
	case s.Minimum != nil:
		return bound(*s.Minimum, s.ExclusiveMinimum, "at least", "more than")
	case s.Maximum != nil:
		return bound(*s.Maximum, s.ExclusiveMaximum, "at most", "less than")
	}
	return ""
}

// countRange says what a minimum and maximum count allow: "length 1 to 63".
func countRange(what string, lo, hi *int64) string {
	switch {
	case lo != nil && hi != nil:
		return fmt.Sprintf("%s %d to %d", what, *lo, *hi)
	case lo != nil:
		return fmt.Sprintf("%s at least %d", what, *lo)
	case hi != nil:
		return fmt.Sprintf("%s at most %d", what, *hi)
	}
	return ""
}
