// Package objectcheck checks objects against their CRD offline, with the
// API server's own code (k8s.io/apiextensions-apiserver), in the order the
// server applies it on a create or an update: unknown fields pruned, nulls
// of non-nullable fields dropped, defaults applied, then the schema's
// validation (types, bounds, formats, enums) and the CEL rules
// (x-kubernetes-validations), transition rules against the old object when
// there is one. crdforge validate, generate (its samples) and check
// --against-cluster --objects all check objects through it, so that they
// agree with each other as they agree with the server.
package objectcheck

import (
	"context"
	"fmt"

	apiextensions "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel/model"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/defaulting"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/listtype"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/objectmeta"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/pruning"
	apiservervalidation "k8s.io/apiextensions-apiserver/pkg/apiserver/validation"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/validation/field"
	celconfig "k8s.io/apiserver/pkg/apis/cel"
	"k8s.io/apiserver/pkg/cel/common"
)

// Schema is one version of a CRD, ready to check objects: its schema as the
// API server holds it, structural, and its validators.
type Schema struct {
	structural *structuralschema.Structural
	schema     apiservervalidation.SchemaValidator
	cel        *cel.Validator
}

// NewSchema readies version of c to check objects, as the API server does
// when it serves the version.
func NewSchema(c *apiextensionsv1.CustomResourceDefinition, version string) (*Schema, error) {
	v1 := versionSchema(c, version)
	if v1 == nil {
		return nil, fmt.Errorf("CRD %s serves no version %s with a schema", c.Name, version)
	}
	internal := &apiextensions.JSONSchemaProps{}
	if err := apiextensionsv1.Convert_v1_JSONSchemaProps_To_apiextensions_JSONSchemaProps(v1, internal, nil); err != nil {
		return nil, err
	}
	ss, err := structuralschema.NewStructural(internal)
	if err != nil {
		return nil, fmt.Errorf("CRD %s %s: the schema is not structural: %w", c.Name, version, err)
	}
	sv, _, err := apiservervalidation.NewSchemaValidator(internal)
	if err != nil {
		return nil, err
	}
	return &Schema{structural: ss, schema: sv, cel: cel.NewValidator(ss, true, celconfig.PerCallLimit)}, nil
}

// versionSchema is the schema of c's served version named version, or nil.
func versionSchema(c *apiextensionsv1.CustomResourceDefinition, version string) *apiextensionsv1.JSONSchemaProps {
	for _, v := range c.Spec.Versions {
		if v.Name == version && v.Served && v.Schema != nil {
			return v.Schema.OpenAPIV3Schema
		}
	}
	return nil
}

// Result is what the API server would make of one object.
type Result struct {
	// Object is the object as the server would store it: pruned and
	// defaulted.
	Object map[string]any
	// Pruned are the paths of the fields the server would drop, unknown to
	// the schema.
	Pruned []string
	// Errors are why the server would refuse the object; none when it
	// would accept it.
	Errors field.ErrorList
}

// Check does to obj what the API server does on a create, or, with old, an
// update of old (customResourceStrategy's Validate and ValidateUpdate, with
// validation ratcheting: on an update, a value that was already invalid and
// did not change is let through). obj and old are left as they are.
func (s *Schema) Check(obj, old map[string]any) Result {
	obj = runtime.DeepCopyJSON(obj)
	pruned := s.decode(obj)
	res := Result{Object: obj, Pruned: pruned}
	if old == nil {
		res.Errors = apiservervalidation.ValidateCustomResource(nil, obj, s.schema)
		res.Errors = append(res.Errors, objectmeta.Validate(context.Background(), nil, obj, s.structural, false)...)
		res.Errors = append(res.Errors, listtype.ValidateListSetsAndMaps(nil, s.structural, obj)...)
		res.Errors = append(res.Errors, s.celErrors(res.Errors, obj, nil)...)
		return res
	}
	old = runtime.DeepCopyJSON(old)
	s.decode(old)
	correlated := common.NewCorrelatedObject(obj, old, &model.Structural{Structural: s.structural})
	res.Errors = apiservervalidation.ValidateCustomResourceUpdate(nil, obj, old, s.schema, apiservervalidation.WithRatcheting(correlated))
	res.Errors = append(res.Errors, objectmeta.Validate(context.Background(), nil, obj, s.structural, false)...)
	if len(listtype.ValidateListSetsAndMaps(nil, s.structural, old)) == 0 {
		res.Errors = append(res.Errors, listtype.ValidateListSetsAndMaps(nil, s.structural, obj)...)
	}
	res.Errors = append(res.Errors, s.celErrors(res.Errors, obj, old, cel.WithRatcheting(correlated))...)
	return res
}

// decode does to obj, in place, what the server's decoding of a custom
// resource does before validation (its unstructuredSchemaCoercer, then its
// defaulter): unknown fields pruned, a null where the schema does not allow
// one dropped (kubebuilder's scaffolded sample has "spec:" with nothing
// after it), defaults applied. It returns the paths of the pruned fields.
func (s *Schema) decode(obj map[string]any) []string {
	pruned := pruning.PruneWithOptions(obj, s.structural, true, structuralschema.UnknownFieldPathOptions{TrackUnknownFieldPaths: true})
	defaulting.PruneNonNullableNullsWithoutDefaults(obj, s.structural)
	defaulting.Default(obj, s.structural)
	return pruned
}

// celErrors runs the CEL rules on obj (and old, for transition rules),
// unless errs already holds an error that keeps the server from running
// them (its strategy's hasBlockingErr): then it says so, as the server does.
func (s *Schema) celErrors(errs field.ErrorList, obj, old map[string]any, opts ...cel.Option) field.ErrorList {
	for _, err := range errs {
		switch err.Type {
		case field.ErrorTypeNotSupported, field.ErrorTypeRequired, field.ErrorTypeTooLong, field.ErrorTypeTooMany, field.ErrorTypeTypeInvalid:
			return field.ErrorList{field.Invalid(nil, nil, "some validation rules were not checked because the object was invalid; correct the existing errors to complete validation")}
		}
	}
	var oldObj any
	if old != nil {
		oldObj = old
	}
	celErrs, _ := s.cel.Validate(context.Background(), nil, s.structural, obj, oldObj, celconfig.RuntimeCELCostBudget, opts...)
	return celErrs
}
