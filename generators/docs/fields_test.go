package docs

import (
	"strings"
	"testing"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"

	"github.com/crdforge/crdforge/generators/model"
)

// A version's field table takes every fact from the CRD's schema and the
// deprecation from +crdforge:deprecated, with what Markdown would misread
// (a pipe, a backtick, a line break) escaped.
func TestFieldTable(t *testing.T) {
	minimum, maximum, maxLen := 1.0, 1000.0, int64(63)
	spec := apiextensionsv1.JSONSchemaProps{Type: "object", Required: []string{"replicas"}, Properties: map[string]apiextensionsv1.JSONSchemaProps{
		"replicas": {Type: "integer", Format: "int32", Minimum: &minimum, Maximum: &maximum, Description: "How many\ncopies run."},
		"size":     {Type: "string", Pattern: "^[0-9]+(Ki|Mi)?$", MaxLength: &maxLen, Default: &apiextensionsv1.JSON{Raw: []byte(`"1Ki"`)}},
		"parts": {Type: "array", Items: &apiextensionsv1.JSONSchemaPropsOrArray{Schema: &apiextensionsv1.JSONSchemaProps{
			Type: "object", Properties: map[string]apiextensionsv1.JSONSchemaProps{"name": {Type: "string", Description: "Uses `code`."}}}}},
	}}
	root := apiextensionsv1.JSONSchemaProps{Type: "object", Properties: map[string]apiextensionsv1.JSONSchemaProps{
		"spec": spec, "apiVersion": {Type: "string"}, "metadata": {Type: "object"}}}
	k := &model.Kind{Name: "Gizmo", CRD: &apiextensionsv1.CustomResourceDefinition{}}
	k.CRD.Spec.Versions = []apiextensionsv1.CustomResourceDefinitionVersion{{Name: "v1", Schema: &apiextensionsv1.CustomResourceValidation{OpenAPIV3Schema: &root}}}
	v := &model.Version{Kind: k, Name: "v1"}
	k.Versions = []*model.Version{v}
	k.DeprecatedFields = []*model.DeprecatedField{{Version: v, Path: []string{"spec", "size"}, Warning: "use spec.capacity"}}
	var b strings.Builder
	fieldTable(&b, k, v)
	want := []string{
		"| `spec` | object |  |  |  |  |  |",
		"| `spec.parts` | []object |  |  |  |  |  |",
		"| `spec.parts[*].name` | string |  |  |  | Uses `code`. |  |",
		"| `spec.replicas` | integer (int32) | yes |  | 1 to 1000 | How many copies run. |  |",
		"| `spec.size` | string |  | `\"1Ki\"` | length at most 63; pattern `^[0-9]+(Ki\\|Mi)?$` |  | use spec.capacity |",
	}
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")[2:]
	if strings.Join(lines, "\n") != strings.Join(want, "\n") {
		t.Errorf("table rows:\n%s\nwant:\n%s", strings.Join(lines, "\n"), strings.Join(want, "\n"))
	}
}
