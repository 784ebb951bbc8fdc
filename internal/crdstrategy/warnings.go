package crdstrategy

import (
	"fmt"
	"slices"

	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/validation"
	apiservervalidation "k8s.io/apiextensions-apiserver/pkg/apiserver/validation"
	"k8s.io/apiserver/pkg/cel/environment"
	openapi "k8s.io/kube-openapi/pkg/validation/spec"
)

// WarningsOnCreate returns the warnings the API server gives when crd is
// created: each format of its schemas the server does not know, at its
// default compatibility version, and each list of objects or lists that is
// a set, which server-side apply and CEL do not support.
func WarningsOnCreate(crd *apiextensions.CustomResourceDefinition) []string {
	var warnings []string
	for _, f := range unrecognizedFormats(&crd.Spec) {
		warnings = append(warnings, fmt.Sprintf("unrecognized format %q", f))
	}
	return append(warnings, nonScalarSetWarnings(&crd.Spec)...)
}

// schemas calls visit with each schema of spec: the top-level one of the
// deprecated single-version form, then each version's, in order.
func schemas(spec *apiextensions.CustomResourceDefinitionSpec, visit func(*apiextensions.JSONSchemaProps)) {
	if spec.Validation != nil && spec.Validation.OpenAPIV3Schema != nil {
		visit(spec.Validation.OpenAPIV3Schema)
	}
	for _, v := range spec.Versions {
		if v.Schema != nil && v.Schema.OpenAPIV3Schema != nil {
			visit(v.Schema.OpenAPIV3Schema)
		}
	}
}

// unrecognizedFormats returns the formats of spec's schemas that the API
// server does not recognise, in the order found, repeats included.
func unrecognizedFormats(spec *apiextensions.CustomResourceDefinitionSpec) []string {
	compatibility := environment.DefaultCompatibilityVersion()
	var formats []string
	schemas(spec, func(s *apiextensions.JSONSchemaProps) {
		validation.SchemaHas(s, func(s *apiextensions.JSONSchemaProps) bool {
			if s.Format != "" {
				props := &openapi.Schema{SchemaProps: openapi.SchemaProps{Format: s.Format, Type: []string{s.Type}}}
				formats = append(formats, apiservervalidation.GetUnrecognizedFormats(props, compatibility)...)
			}
			return false // every schema, not the first
		})
	})
	return formats
}

// nonScalarSetWarnings returns, sorted and each once, the warnings for
// lists of objects or lists declared x-kubernetes-list-type: set.
func nonScalarSetWarnings(spec *apiextensions.CustomResourceDefinitionSpec) []string {
	var warnings []string
	schemas(spec, func(s *apiextensions.JSONSchemaProps) {
		validation.SchemaHas(s, func(s *apiextensions.JSONSchemaProps) bool {
			if s.XListType != nil && *s.XListType == "set" && s.Items != nil && s.Items.Schema != nil {
				switch t := s.Items.Schema.Type; t {
				case "object", "array":
					warnings = append(warnings, fmt.Sprintf("x-kubernetes-list-type: set for items of type %q is not supported by server-side apply or CEL validation rules", t))
				}
			}
			return false
		})
	})
	slices.Sort(warnings)
	return slices.Compact(warnings)
}
