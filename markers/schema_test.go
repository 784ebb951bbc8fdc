package markers

import (
	"testing"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/utils/ptr"
)

func TestApplyToSchema(t *testing.T) {
	regs, err := NewRegistries()
	if err != nil {
		t.Fatal(err)
	}
	list := func() *apiextensionsv1.JSONSchemaProps {
		return &apiextensionsv1.JSONSchemaProps{Type: "array", Items: &apiextensionsv1.JSONSchemaPropsOrArray{Schema: &apiextensionsv1.JSONSchemaProps{Type: "string"}}}
	}
	for _, tt := range []struct {
		name    string
		text    string
		in      *apiextensionsv1.JSONSchemaProps
		applied bool
		want    *apiextensionsv1.JSONSchemaProps
	}{
		{"a bound on the field", "+kubebuilder:validation:MaxItems=3", list(), true,
			&apiextensionsv1.JSONSchemaProps{Type: "array", MaxItems: ptr.To[int64](3), Items: list().Items}},
		{"an items: marker writes the items", "+kubebuilder:validation:items:MaxLength=5", list(), true,
			&apiextensionsv1.JSONSchemaProps{Type: "array", Items: &apiextensionsv1.JSONSchemaPropsOrArray{Schema: &apiextensionsv1.JSONSchemaProps{Type: "string", MaxLength: ptr.To[int64](5)}}}},
		{"a CEL rule", `+kubebuilder:validation:XValidation:rule="self.size() > 0"`, list(), true,
			&apiextensionsv1.JSONSchemaProps{Type: "array", Items: list().Items, XValidations: apiextensionsv1.ValidationRules{{Rule: "self.size() > 0"}}}},
		{"a marker that is no schema marker", "+optional", list(), false, list()},
		{"a marker the schema refuses", "+kubebuilder:validation:MaxLength=5", list(), false, list()},
		{"not a marker", "+notamarker=1", list(), false, list()},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := ApplyToSchema(regs.Kubebuilder, nil, nil, Comment{Text: tt.text}, tt.in)
			if got != tt.applied || !equality.Semantic.DeepEqual(tt.in, tt.want) {
				t.Errorf("applied %v, schema %+v; want %v, %+v", got, tt.in, tt.applied, tt.want)
			}
		})
	}
}
