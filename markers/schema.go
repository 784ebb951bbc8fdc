package markers

import (
	"go/ast"
	"strings"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"sigs.k8s.io/controller-tools/pkg/crd"
	crdmarkers "sigs.k8s.io/controller-tools/pkg/crd/markers"
	"sigs.k8s.io/controller-tools/pkg/loader"
	ctmarkers "sigs.k8s.io/controller-tools/pkg/markers"
)

// ApplyToSchema applies the kubebuilder marker comment c to s as
// controller-tools' schema parser applies it: a +kubebuilder:validation:items:
// marker to s's items, any other schema marker to s itself. spec is the type
// c is written on, nil for a field's marker; pkg is the package it is in.
// It reports whether c is a schema marker that applied without error: what
// the marker gives a schema is then read off s, from the marker's own
// definition, with no list of markers kept here.
func ApplyToSchema(reg *ctmarkers.Registry, pkg *loader.Package, spec *ast.TypeSpec, c Comment, s *apiextensionsv1.JSONSchemaProps) bool {
	target := ctmarkers.DescribesField
	ctx := &crdmarkers.SchemaContext{Package: pkg}
	if spec != nil {
		target = ctmarkers.DescribesType
		// k8s:enum reads the type's constants through its context.
		ctx.TypeInfo = &ctmarkers.TypeInfo{Name: spec.Name.Name, RawSpec: spec}
	}
	def := reg.Lookup(c.Text, target)
	if def == nil {
		return false
	}
	val, err := def.Parse(c.Text)
	if err != nil {
		return false
	}
	sm, ok := val.(crd.SchemaMarker)
	if !ok {
		return false
	}
	if strings.HasPrefix(def.Name, crdmarkers.ValidationItemsPrefix) {
		if s.Items == nil || s.Items.Schema == nil {
			return false
		}
		s = s.Items.Schema
	}
	return sm.ApplyToSchema(ctx, s) == nil
}
