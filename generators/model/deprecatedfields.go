package model

import (
	"go/ast"
	"go/token"
	"go/types"
	"reflect"
	"slices"
	"strconv"
	"strings"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"

	"github.com/crdforge/crdforge/internal/diag"
	"github.com/crdforge/crdforge/markers"
)

// DeprecatedField is a field that a +crdforge:deprecated marker deprecates,
// in one version of a kind: a field reached twice (a struct used at two
// places) is two of them.
type DeprecatedField struct {
	Version *Version
	// Path is the field's JSON names from the object's root, as in spec,
	// backup, retention. No list or map lies on it (see walkDeprecated).
	Path []string
	// Warning is the marker's text.
	Warning string
	// Pos is the marker's position.
	Pos token.Pos
}

// JSONPath is the field's path, dotted: spec.backup.retention.
func (f *DeprecatedField) JSONPath() string { return strings.Join(f.Path, ".") }

// deprecation is one +crdforge:deprecated marker on a field of a root
// package, and whether some kind reaches the field.
type deprecation struct {
	warning string
	pos     token.Pos
	reached bool
}

// indexDeprecations reads every +crdforge:deprecated marker once, by the
// position of each field name it describes (a types.Var's Pos), and
// reports the ones that can deprecate nothing: no warning, or a field that
// has no property of its own in the schema.
func (b *Builder) indexDeprecations(diags *diag.List) {
	b.deprecations = map[token.Pos]*deprecation{}
	for _, root := range b.Roots {
		set := b.Markers[root]
		if set == nil {
			continue
		}
		for f, vals := range set.Fields {
			for _, v := range vals {
				d, ok := v.Value.(markers.DeprecatedField)
				if !ok {
					continue
				}
				if strings.TrimSpace(d.Warning) == "" {
					diags.Errorf(v.Pos, "+%s needs a warning", markers.DeprecatedName).
						Note("the warning is the text clients see and the field's description carries").
						Help(`say what to use instead: +%s:warning="use spec.schedule; spec.cronSpec goes in v2"`, markers.DeprecatedName)
					continue
				}
				if strings.ContainsAny(d.Warning, "\r\n") {
					diags.Errorf(v.Pos, "+%s's warning holds a line break", markers.DeprecatedName).
						Note("a warning is one line: an HTTP Warning header")
					continue
				}
				if why := outOfSchema(f); why != "" {
					diags.Errorf(v.Pos, "+%s on a field with no property of its own to deprecate", markers.DeprecatedName).
						Note("%s", why).
						Help("put it on a field with a JSON name of its own")
					continue
				}
				for _, n := range f.Names {
					b.deprecations[n.Pos()] = &deprecation{warning: strings.TrimSpace(d.Warning), pos: v.Pos}
				}
			}
		}
	}
}

// outOfSchema says why a struct field has no property of its own in a
// CRD's schema, or is "".
func outOfSchema(f *ast.Field) string {
	var tag string
	if f.Tag != nil {
		s, _ := strconv.Unquote(f.Tag.Value)
		tag = reflect.StructTag(s).Get("json")
	}
	name, opts, _ := strings.Cut(tag, ",")
	switch {
	case name == "-" && opts == "":
		return `json:"-" keeps it out of the schema`
	case len(f.Names) == 0 || (name == "" && strings.Contains(opts, "inline")):
		return "it is inlined: its fields are its parent's"
	case !slices.ContainsFunc(f.Names, func(n *ast.Ident) bool { return n.IsExported() }):
		return "it is unexported"
	}
	return ""
}

// reportUnreachedDeprecations warns at every +crdforge:deprecated marker
// on a field that no kind's schema holds: it deprecates nothing.
func (b *Builder) reportUnreachedDeprecations(diags *diag.List) {
	for _, d := range b.deprecations {
		if !d.reached {
			diags.Warnf(d.pos, "+%s here has no effect: no kind's schema holds this field", markers.DeprecatedName)
		}
	}
}

// resolveDeprecatedFields finds, in every version of k, the fields that
// +crdforge:deprecated markers deprecate, in the version's order and then
// the fields' declaration order.
func (b *Builder) resolveDeprecatedFields(k *Kind, diags *diag.List) {
	if len(b.deprecations) == 0 {
		return
	}
	roots := map[string]bool{}
	for _, r := range b.Roots {
		roots[r.PkgPath] = true
	}
	for _, v := range k.Versions {
		if v.Type == nil {
			continue
		}
		w := &deprecatedWalk{b: b, k: k, v: v, roots: roots, diags: diags, onStack: map[*types.Named]bool{}}
		w.fields(v.Type, nil, false)
	}
}

// deprecatedWalk walks one version's fields, as encoding/json and
// controller-tools see them, from the root type down.
type deprecatedWalk struct {
	b       *Builder
	k       *Kind
	v       *Version
	roots   map[string]bool
	diags   *diag.List
	onStack map[*types.Named]bool
}

// fields walks the fields of struct type t, whose property is at path;
// inList says a list or a map lies on the path.
func (w *deprecatedWalk) fields(t types.Type, path []string, inList bool) {
	st, ok := Deref(t).Underlying().(*types.Struct)
	if !ok {
		return
	}
	for i := range st.NumFields() {
		f := st.Field(i)
		name, opts, _ := strings.Cut(reflect.StructTag(st.Tag(i)).Get("json"), ",")
		switch {
		case name == "-" && opts == "":
			continue
		case name == "" && (f.Embedded() || strings.Contains(opts, "inline")):
			w.into(f.Type(), path, inList)
			continue
		case !f.Exported():
			continue
		case name == "":
			name = f.Name()
		}
		p := append(slices.Clip(path), name)
		if d := w.b.deprecations[f.Pos()]; d != nil {
			d.reached = true
			w.add(d, p, inList)
		}
		w.into(f.Type(), p, inList)
	}
}

// into walks the fields of t, a field's type, when crdforge's markers can
// be in it (a type of a root package, or an unnamed struct).
func (w *deprecatedWalk) into(t types.Type, path []string, inList bool) {
	switch u := types.Unalias(Deref(types.Unalias(t))).(type) {
	case *types.Named:
		if u.Obj().Pkg() == nil || !w.roots[u.Obj().Pkg().Path()] || w.onStack[u] {
			return
		}
		w.onStack[u] = true
		w.into(u.Underlying(), path, inList)
		delete(w.onStack, u)
	case *types.Struct:
		w.fields(u, path, inList)
	case *types.Slice:
		w.into(u.Elem(), items(path), true)
	case *types.Array:
		w.into(u.Elem(), items(path), true)
	case *types.Map:
		w.into(u.Elem(), items(path), true)
	}
}

// items is the path of a list's items or a map's values, as crdify writes
// it: ports[*].
func items(path []string) []string {
	if len(path) == 0 {
		return path
	}
	out := slices.Clone(path)
	out[len(out)-1] += "[*]"
	return out
}

// add records the deprecated field at path, after checking that the
// version's schema has it and that a policy can tell when a client sets it.
func (w *deprecatedWalk) add(d *deprecation, path []string, inList bool) {
	where := w.v.Name + " " + w.k.Name + "." + strings.Join(path, ".")
	if inList {
		w.diags.Errorf(d.pos, "+%s on %s, inside a list or a map", markers.DeprecatedName, where).
			Note("crdforge's deprecation policy cannot check a field inside a list or a map yet").
			Help("deprecate the list or map field itself")
		return
	}
	prop := schemaProperty(w.k.CRD, w.v.Name, path)
	if prop == nil {
		w.diags.Errorf(d.pos, "+%s on %s: %s's schema has no such property", markers.DeprecatedName, where, w.v.Name)
		return
	}
	if prop.Default != nil {
		w.diags.Warnf(d.pos, "+%s on %s, which has a default", markers.DeprecatedName, where).
			Note("the API server sets the default on every create, so every create warns").
			Help("drop the field's +kubebuilder:default")
	}
	w.k.DeprecatedFields = append(w.k.DeprecatedFields, &DeprecatedField{Version: w.v, Path: path, Warning: d.warning, Pos: d.pos})
}

// schemaProperty is the property at path in version's schema of c, or nil.
func schemaProperty(c *apiextensionsv1.CustomResourceDefinition, version string, path []string) *apiextensionsv1.JSONSchemaProps {
	if c == nil {
		return nil
	}
	for _, v := range c.Spec.Versions {
		if v.Name != version || v.Schema == nil || v.Schema.OpenAPIV3Schema == nil {
			continue
		}
		p := v.Schema.OpenAPIV3Schema
		for _, name := range path {
			next, ok := p.Properties[name]
			if !ok {
				return nil
			}
			p = &next
		}
		return p
	}
	return nil
}
