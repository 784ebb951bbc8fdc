package crd

import (
	"go/ast"
	"go/token"
	"go/types"
	"reflect"
	"strings"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	ctcrd "sigs.k8s.io/controller-tools/pkg/crd"

	"github.com/crdforge/crdforge/generators/model"
	"github.com/crdforge/crdforge/markers"
)

// omissions are a model's +crdforge:description:omit markers: the fields,
// types and packages whose descriptions the CRDs leave out. The schemas
// controller-tools built are walked beside the Go types that produced them
// (as the validator's locate does), so that a marker reaches every
// description its field or type put in a schema, however deep, and nothing
// else. An omissions is read-only once made, and safe for concurrent use.
type omissions struct {
	// fields holds the marked fields by their types.Var's position: the
	// name, or, for an embedded field, its type's name.
	fields map[token.Pos]bool
	// types holds the marked types by their name's position.
	types map[token.Pos]bool
	// packages holds the marked packages by import path.
	packages map[string]bool
	// docs holds, when some type is marked, every root package's struct
	// field by position: whether a field has words of its own decides
	// whose description its property carries (controller-tools takes the
	// field's doc, else its type's).
	docs map[token.Pos]*ast.Field
}

// newOmissions collects the model's omit markers; nil when there is none,
// the common case, which costs nothing more.
func newOmissions(m *model.Model) *omissions {
	o := &omissions{fields: map[token.Pos]bool{}, types: map[token.Pos]bool{}, packages: map[string]bool{}}
	for pkg, set := range m.Markers {
		if has(set.Package) {
			o.packages[pkg.PkgPath] = true
		}
		for ts, vals := range set.Types {
			if has(vals) {
				o.types[ts.Name.Pos()] = true
			}
		}
		for f, vals := range set.Fields {
			if has(vals) {
				for _, pos := range varPositions(f) {
					o.fields[pos] = true
				}
			}
		}
	}
	if len(o.fields)+len(o.types)+len(o.packages) == 0 {
		return nil
	}
	if len(o.types) > 0 {
		o.docs = fieldDecls(m)
	}
	return o
}

// has reports whether vals hold the omit marker.
func has(vals []markers.Value) bool {
	for _, v := range vals {
		if v.Name == markers.DescOmitName {
			return true
		}
	}
	return false
}

// varPositions are the positions go/types gives the variables a struct
// field declares: each name's, or an embedded field's type name's.
func varPositions(f *ast.Field) []token.Pos {
	if len(f.Names) == 0 {
		return []token.Pos{embeddedName(f.Type).Pos()}
	}
	out := make([]token.Pos, len(f.Names))
	for i, n := range f.Names {
		out[i] = n.Pos()
	}
	return out
}

// embeddedName is the identifier an embedded field is named after: T in
// T, *T, pkg.T and T[P].
func embeddedName(e ast.Expr) ast.Node {
	for {
		switch x := e.(type) {
		case *ast.StarExpr:
			e = x.X
		case *ast.SelectorExpr:
			return x.Sel
		case *ast.IndexExpr:
			e = x.X
		case *ast.IndexListExpr:
			e = x.X
		default:
			return e
		}
	}
}

// fieldDecls indexes the struct fields of the model's root packages by
// their variables' positions.
func fieldDecls(m *model.Model) map[token.Pos]*ast.Field {
	out := map[token.Pos]*ast.Field{}
	for _, root := range m.Roots {
		for _, file := range root.Syntax {
			ast.Inspect(file, func(n ast.Node) bool {
				if st, ok := n.(*ast.StructType); ok {
					for _, f := range st.Fields.List {
						for _, pos := range varPositions(f) {
							out[pos] = f
						}
					}
				}
				return true
			})
		}
	}
	return out
}

// apply leaves the marked descriptions out of c, k's CRD, in place.
func (o *omissions) apply(k *model.Kind, c *apiextensionsv1.CustomResourceDefinition) {
	if o == nil {
		return
	}
	byName := map[string]*model.Version{}
	for _, v := range k.Versions {
		byName[v.Name] = v
	}
	for i := range c.Spec.Versions {
		cv := &c.Spec.Versions[i]
		ver := byName[cv.Name]
		if ver == nil || cv.Schema == nil || cv.Schema.OpenAPIV3Schema == nil {
			continue
		}
		root := cv.Schema.OpenAPIV3Schema
		if o.typeOmitted(ver.Type) {
			clearAll(root)
			continue
		}
		o.walk(root, ver.Type)
	}
}

// walk clears, below s, the descriptions the markers leave out; t is the Go
// type s is the schema of.
func (o *omissions) walk(s *apiextensionsv1.JSONSchemaProps, t types.Type) {
	for name, prop := range s.Properties {
		f, via := fieldByJSONName(t, name)
		switch {
		case f == nil:
			// No Go field (an ObjectMeta controller-tools wrote itself):
			// no marker reaches it.
		case o.fields[f.Pos()] || o.anyOmitted(via):
			clearAll(&prop)
		case o.typeOmitted(f.Type()):
			// The type's descriptions go, and its own doc comment where
			// the field has none of its own to take its place.
			if !o.ownDoc(f) {
				prop.Description = ""
			}
			clearBelow(&prop)
		default:
			o.walk(&prop, f.Type())
		}
		s.Properties[name] = prop
	}
	if s.Items != nil && s.Items.Schema != nil {
		o.walkNested(s.Items.Schema, elemOf(t))
	}
	if s.AdditionalProperties != nil && s.AdditionalProperties.Schema != nil {
		o.walkNested(s.AdditionalProperties.Schema, mapElemOf(t))
	}
	for _, list := range [][]apiextensionsv1.JSONSchemaProps{s.AllOf, s.OneOf, s.AnyOf} {
		for i := range list {
			o.walk(&list[i], t)
		}
	}
}

// walkNested walks the schema of a list's item or a map's value, of the Go
// type t (nil when unknown): a marked type's whole schema goes, its own
// description with it.
func (o *omissions) walkNested(s *apiextensionsv1.JSONSchemaProps, t types.Type) {
	if t != nil && o.typeOmitted(t) {
		clearAll(s)
		return
	}
	o.walk(s, t)
}

// anyOmitted reports whether a field reached through the embedded fields
// via is a field of a marked type, or of a marked embedded field.
func (o *omissions) anyOmitted(via []*types.Var) bool {
	for _, e := range via {
		if o.fields[e.Pos()] || o.typeOmitted(e.Type()) {
			return true
		}
	}
	return false
}

// typeOmitted reports whether t, pointers aside, is a named type that is
// marked, or declared in a marked package.
func (o *omissions) typeOmitted(t types.Type) bool {
	named, ok := types.Unalias(model.Deref(t)).(*types.Named)
	if !ok {
		return false
	}
	obj := named.Obj()
	return o.types[obj.Pos()] || (obj.Pkg() != nil && o.packages[obj.Pkg().Path()])
}

// ownDoc reports whether the field's doc comment holds words beyond
// markers: then its property's description is the field's, not its type's.
// A field outside the root packages is taken to have one: its description
// stays, as one the markers cannot tell apart.
func (o *omissions) ownDoc(f *types.Var) bool {
	decl := o.docs[f.Pos()]
	if decl == nil {
		return true
	}
	if decl.Doc == nil {
		return false
	}
	for _, line := range strings.Split(decl.Doc.Text(), "\n") {
		if line = strings.TrimSpace(line); line != "" && !strings.HasPrefix(line, "+") {
			return true
		}
	}
	return false
}

// fieldByJSONName is model.FieldByJSONName, which also returns the embedded
// fields it went through to find the field.
func fieldByJSONName(t types.Type, name string) (*types.Var, []*types.Var) {
	if t == nil {
		return nil, nil
	}
	st, ok := model.Deref(t).Underlying().(*types.Struct)
	if !ok {
		return nil, nil
	}
	for i := 0; i < st.NumFields(); i++ {
		f := st.Field(i)
		jsonName, opts, _ := strings.Cut(reflect.StructTag(st.Tag(i)).Get("json"), ",")
		if jsonName == "-" && opts == "" {
			continue
		}
		if jsonName == "" && (f.Embedded() || strings.Contains(opts, "inline")) {
			if inner, via := fieldByJSONName(f.Type(), name); inner != nil {
				return inner, append([]*types.Var{f}, via...)
			}
			continue
		}
		if jsonName == "" {
			jsonName = f.Name()
		}
		if jsonName == name {
			return f, nil
		}
	}
	return nil, nil
}

// elemOf is the element type of a slice or array type, or nil.
func elemOf(t types.Type) types.Type {
	if t == nil {
		return nil
	}
	switch u := model.Deref(t).Underlying().(type) {
	case *types.Slice:
		return u.Elem()
	case *types.Array:
		return u.Elem()
	}
	return nil
}

// mapElemOf is the value type of a map type, or nil.
func mapElemOf(t types.Type) types.Type {
	if t == nil {
		return nil
	}
	if m, ok := model.Deref(t).Underlying().(*types.Map); ok {
		return m.Elem()
	}
	return nil
}

// clearAll leaves out every description of s, its own and those below.
func clearAll(s *apiextensionsv1.JSONSchemaProps) {
	ctcrd.EditSchema(s, descriptionClearer{})
}

// clearBelow leaves out every description below s, keeping s's own.
func clearBelow(s *apiextensionsv1.JSONSchemaProps) {
	desc := s.Description
	clearAll(s)
	s.Description = desc
}

// descriptionClearer is controller-tools' schema visitor that clears the
// description of every schema it visits.
type descriptionClearer struct{}

func (v descriptionClearer) Visit(s *apiextensionsv1.JSONSchemaProps) ctcrd.SchemaVisitor {
	if s != nil {
		s.Description = ""
	}
	return v
}
