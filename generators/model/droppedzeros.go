package model

import (
	"encoding/json"
	"go/token"
	"go/types"
	"maps"
	"reflect"
	"slices"
	"strings"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"

	"github.com/crdforge/crdforge/internal/diag"
	"github.com/crdforge/crdforge/internal/settings"
	"github.com/crdforge/crdforge/markers"
)

// A field with a default other than its Go zero value, whose tag drops that
// zero (omitempty, omitzero), cannot hold the zero in Go: a client writes
// backups: false, Go reads false, writes no backups at all, and the API
// server, finding none, applies the default, true. Without conversion the
// API server keeps the client's JSON as it came; through the webhook every
// object is written by Go, so conversion turns the zero into the default,
// and no generated round-trip test (Go values) can see it. So every such
// field of a kind of more than one version whose schema lets a client write
// the zero (zeroadmitted.go) is reported at the field: an
// error where the kind converts through the webhook, a warning elsewhere
// (there only Go clients lose the zero), unless +crdforge:droppedzero
// accepts it.

// droppedZero is one field that drops an explicit zero in favour of its
// default, as first found.
type droppedZero struct {
	field *types.Var
	// where names it: the version, the kind and its JSON path.
	where string
	// zero and def are the dropped zero and the default, as JSON; option
	// the tag's option that drops it.
	zero, def, option string
	// webhook says a kind that reaches it converts through the webhook.
	webhook bool
}

// reportDroppedZeros reports every field of a kind of more than one version
// that drops an explicit zero for its default, once the strategies are
// settled, and every +crdforge:droppedzero that accepts nothing.
func (b *Builder) reportDroppedZeros(diags *diag.List) {
	acks := b.droppedZeroMarkers()
	found := map[token.Pos]*droppedZero{}
	roots := map[string]bool{}
	for _, r := range b.Roots {
		roots[r.PkgPath] = true
	}
	for _, g := range b.Groups {
		for _, k := range g.Kinds {
			if len(k.Versions) < 2 || k.CRD == nil {
				continue // nothing converts
			}
			for _, v := range k.Versions {
				w := &zeroWalk{k: k, v: v, roots: roots, found: found, onStack: map[*types.Named]bool{}}
				if s := versionSchema(k.CRD, v.Name); s != nil && v.Type != nil {
					w.fields(v.Type, s, nil)
				}
			}
		}
	}
	for _, pos := range slices.Sorted(maps.Keys(found)) {
		if _, ok := acks[pos]; ok {
			delete(acks, pos)
			continue
		}
		found[pos].report(diags)
	}
	for _, mpos := range acks {
		diags.Warnf(mpos, "+%s here has no effect: no explicit zero is lost at this field", markers.DroppedZeroName).
			Note("only a field of a kind of more than one version, with a default other than its zero, that omitempty or omitzero drops, and whose schema admits the zero, needs it").
			Help("remove the marker")
	}
}

// droppedZeroMarkers indexes the +crdforge:droppedzero markers of the
// roots' fields: the field's position to the marker's.
func (b *Builder) droppedZeroMarkers() map[token.Pos]token.Pos {
	out := map[token.Pos]token.Pos{}
	for _, root := range b.Roots {
		set := b.Markers[root]
		if set == nil {
			continue
		}
		for f, vals := range set.Fields {
			for _, v := range vals {
				if v.Name != markers.DroppedZeroName {
					continue
				}
				for _, n := range f.Names {
					out[n.Pos()] = v.Pos
				}
			}
		}
	}
	return out
}

// report reports the field: an error when the webhook changes the data,
// a warning when only Go clients do. Both are of diag.ClassDroppedZero: a
// project adopting crdforge with many such fields may run with
// --allow-dropped-zeros, which makes the errors warnings, rather than be
// stopped until it has changed each one.
func (z *droppedZero) report(diags *diag.List) {
	var d *diag.Diagnostic
	if z.webhook {
		d = diags.ErrorClassf(diag.ClassDroppedZero, z.field.Pos(), "%s: an explicit %s becomes the default %s on conversion", z.where, z.zero, z.def).
			Note("the webhook writes the converted object without the field (%s drops %s), and the API server then applies the default: a client's %s reads back as %s", z.option, z.zero, z.zero, z.def)
	} else {
		d = diags.WarnClassf(diag.ClassDroppedZero, z.field.Pos(), "%s: an explicit %s becomes the default %s when Go writes it", z.where, z.zero, z.def).
			Note("the kind does not convert through the webhook, but a Go client writes the object without the field (%s drops %s), and the API server then applies the default", z.option, z.zero)
	}
	d.Help("%s, to keep %s", z.fix(), z.zero).
		Help("if %s is meant to read as %s, mark it +%s", z.zero, z.def, markers.DroppedZeroName)
	if z.webhook {
		d.Help("a project adopting crdforge with many such fields can run crdforge generate with %s (%s), which reports them as warnings",
			settings.AllowDroppedZeros.Flag(), settings.AllowDroppedZeros.InProjectFile(true))
	}
}

// fix says how to keep the field's zero: a list or a map keeps an empty
// value under omitzero, which drops only nil; another type as a pointer,
// whose nil is the one value left out.
func (z *droppedZero) fix() string {
	switch z.field.Type().Underlying().(type) {
	case *types.Slice, *types.Map:
		return "write omitzero in place of omitempty (it drops only nil)"
	case *types.Struct, *types.Array:
		return "drop " + z.option + " from its tag"
	}
	ptr := "*" + types.TypeString(z.field.Type(), types.RelativeTo(z.field.Pkg()))
	return "make it a pointer (" + ptr + "), or drop " + z.option + " from its tag"
}

// versionSchema is version's schema in c, or nil.
func versionSchema(c *apiextensionsv1.CustomResourceDefinition, version string) *apiextensionsv1.JSONSchemaProps {
	for _, v := range c.Spec.Versions {
		if v.Name == version && v.Schema != nil {
			return v.Schema.OpenAPIV3Schema
		}
	}
	return nil
}

// zeroWalk walks one version's fields, as encoding/json and
// controller-tools see them, beside their schema, from the root type down.
type zeroWalk struct {
	k       *Kind
	v       *Version
	roots   map[string]bool
	found   map[token.Pos]*droppedZero
	onStack map[*types.Named]bool
}

// fields walks the fields of struct type t, whose schema is s and property
// path is path.
func (w *zeroWalk) fields(t types.Type, s *apiextensionsv1.JSONSchemaProps, path []string) {
	st, ok := Deref(t).Underlying().(*types.Struct)
	if !ok {
		return
	}
	for i := range st.NumFields() {
		f := st.Field(i)
		tag := parseJSONTag(st.Tag(i))
		switch {
		case tag.name == "-" && !tag.comma:
			continue
		case tag.name == "" && (f.Embedded() || tag.inline):
			w.into(f.Type(), s, path)
			continue
		case !f.Exported():
			continue
		case tag.name == "":
			tag.name = f.Name()
		}
		prop, ok := s.Properties[tag.name]
		if !ok {
			continue
		}
		p := append(slices.Clip(path), tag.name)
		w.check(f, &prop, tag, p)
		w.into(f.Type(), &prop, p)
	}
}

// into walks the fields of t, a field's type whose schema is s, when it is
// crdforge's to report on (a type of a root package, or an unnamed struct).
func (w *zeroWalk) into(t types.Type, s *apiextensionsv1.JSONSchemaProps, path []string) {
	switch u := types.Unalias(Deref(types.Unalias(t))).(type) {
	case *types.Named:
		if u.Obj().Pkg() == nil || !w.roots[u.Obj().Pkg().Path()] || w.onStack[u] {
			return
		}
		w.onStack[u] = true
		w.into(u.Underlying(), s, path)
		delete(w.onStack, u)
	case *types.Struct:
		w.fields(u, s, path)
	case *types.Slice:
		if s.Items != nil && s.Items.Schema != nil {
			w.into(u.Elem(), s.Items.Schema, items(path))
		}
	case *types.Array:
		if s.Items != nil && s.Items.Schema != nil {
			w.into(u.Elem(), s.Items.Schema, items(path))
		}
	case *types.Map:
		if s.AdditionalProperties != nil && s.AdditionalProperties.Schema != nil {
			w.into(u.Elem(), s.AdditionalProperties.Schema, items(path))
		}
	}
}

// check records field f, whose property prop is at path, when its tag
// drops a zero its default is not.
func (w *zeroWalk) check(f *types.Var, prop *apiextensionsv1.JSONSchemaProps, tag jsonTag, path []string) {
	if prop.Default == nil {
		return
	}
	zero, option := defaultReplacesZero(f.Type(), tag, prop.Default.Raw)
	if option == "" || !admitsZero(prop, f.Type(), zero) {
		return
	}
	webhook := w.k.Conversion.Strategy == markers.StrategyWebhook
	if z := w.found[f.Pos()]; z != nil && (z.webhook || !webhook) {
		return // found already, as bad or worse
	}
	w.found[f.Pos()] = &droppedZero{
		field:   f,
		where:   w.v.Name + " " + w.k.Name + " " + strings.Join(path, "."),
		zero:    zero,
		def:     string(prop.Default.Raw),
		option:  option,
		webhook: webhook,
	}
}

// jsonTag is a struct field's json tag, as encoding/json and
// controller-tools read it.
type jsonTag struct {
	name                        string
	comma                       bool // options follow the name, even none: "-," names a field "-"
	omitEmpty, omitZero, inline bool
}

func parseJSONTag(structTag string) jsonTag {
	name, opts, comma := strings.Cut(reflect.StructTag(structTag).Get("json"), ",")
	t := jsonTag{name: name, comma: comma}
	for _, o := range strings.Split(opts, ",") {
		switch o {
		case "omitempty":
			t.omitEmpty = true
		case "omitzero":
			t.omitZero = true
		case "inline":
			t.inline = true
		}
	}
	return t
}

// defaultReplacesZero returns the explicit zero that a t so tagged drops
// and def, a default as JSON, replaces with another value, and the option
// that drops it; option is "" when the default keeps every value a client
// writes.
func defaultReplacesZero(t types.Type, tag jsonTag, def []byte) (zero, option string) {
	var v any
	if err := json.Unmarshal(def, &v); err != nil {
		return "", "" // the API server's validation of the CRD says what is wrong
	}
	zero, option = droppedValue(t, tag)
	if option == "" || isDropped(t, tag, v) {
		return "", ""
	}
	return zero, option
}

// droppedValue is the JSON of the explicit value a field of type t, so
// tagged, reads and then leaves out of what it writes, and the tag's option
// that leaves it out; option is "" when there is none. A value that only
// null gives (a nil pointer, slice or map under omitzero) is none: the API
// server prunes a null before it defaults. A type that decides its zero
// itself (IsZero) or reads its own JSON is none either: what its zero is
// written as is its own.
func droppedValue(t types.Type, tag jsonTag) (zero, option string) {
	if (!tag.omitEmpty && !tag.omitZero) || ownJSON(t) {
		return "", ""
	}
	either := "omitzero"
	if tag.omitEmpty {
		either = "omitempty"
	}
	switch u := t.Underlying().(type) {
	case *types.Basic:
		switch {
		case u.Info()&types.IsBoolean != 0:
			return "false", either
		case u.Info()&types.IsNumeric != 0:
			return "0", either
		case u.Info()&types.IsString != 0:
			return `""`, either
		}
	case *types.Slice:
		if tag.omitEmpty && isByteSlice(u) {
			return `""`, "omitempty" // base64 of no bytes
		} else if tag.omitEmpty {
			return "[]", "omitempty"
		}
	case *types.Map:
		if tag.omitEmpty {
			return "{}", "omitempty"
		}
	case *types.Array:
		if u.Len() == 0 {
			return "[]", either
		} else if tag.omitZero {
			return "[]", "omitzero" // Go reads [] as every element's zero
		}
	case *types.Struct:
		if tag.omitZero {
			return "{}", "omitzero" // omitempty never drops a struct
		}
	}
	return "", ""
}

// isDropped reports whether v, a default as JSON, read into a t so tagged,
// is a value the tag leaves out: the default then only restores what the
// client wrote.
func isDropped(t types.Type, tag jsonTag, v any) bool {
	if tag.omitEmpty && isEmptyJSON(t, v) {
		return true
	}
	return tag.omitZero && isZeroJSON(t, v)
}

// isEmptyJSON reports whether v read into a t is empty as omitempty means
// it: false, 0, "", no elements.
func isEmptyJSON(t types.Type, v any) bool {
	switch u := t.Underlying().(type) {
	case *types.Basic:
		return isZeroJSON(t, v)
	case *types.Slice:
		if isByteSlice(u) {
			return v == ""
		}
		l, ok := v.([]any)
		return ok && len(l) == 0
	case *types.Map:
		m, ok := v.(map[string]any)
		return ok && len(m) == 0
	case *types.Array:
		return u.Len() == 0
	}
	return false
}

// isZeroJSON reports whether v read into a zero t leaves it zero: null,
// false, 0, "", and for arrays and structs, zeros in every element and
// field it names.
func isZeroJSON(t types.Type, v any) bool {
	if v == nil {
		return true
	}
	if ownJSON(t) {
		return false
	}
	switch u := t.Underlying().(type) {
	case *types.Basic:
		return v == false || v == float64(0) || v == ""
	case *types.Array:
		l, ok := v.([]any)
		return ok && !slices.ContainsFunc(l, func(e any) bool { return !isZeroJSON(u.Elem(), e) })
	case *types.Struct:
		m, ok := v.(map[string]any)
		if !ok {
			return false
		}
		for name, e := range m {
			if f := FieldByJSONName(u, name); f != nil && !isZeroJSON(f.Type(), e) {
				return false
			}
		}
		return true
	}
	return false // a pointer, slice, map or interface is zero only when nil
}

// ownJSON reports whether t reads its own JSON or decides its own zero:
// what it writes for its zero cannot be told from its type.
func ownJSON(t types.Type) bool {
	for _, name := range []string{"UnmarshalJSON", "IsZero"} {
		obj, _, _ := types.LookupFieldOrMethod(types.NewPointer(t), true, nil, name)
		if _, ok := obj.(*types.Func); ok {
			return true
		}
	}
	return false
}

func isByteSlice(s *types.Slice) bool {
	b, ok := s.Elem().Underlying().(*types.Basic)
	return ok && b.Kind() == types.Byte
}
