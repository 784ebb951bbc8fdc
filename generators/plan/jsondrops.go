package plan

import (
	"go/token"
	"go/types"
	"reflect"
	"slices"
	"strings"

	"github.com/crdforge/crdforge/generators/model"
	"github.com/crdforge/crdforge/internal/gotype"
)

// Two versions may declare one field with different JSON options: tags
// omitzero in v1, omitempty in v1alpha1. The Go values convert by a copy,
// but the API server holds JSON, and what the destination's JSON leaves out
// comes back as another value: v1's tags: [] becomes absent through
// v1alpha1, and nothing was stashed (issue 58, item 5). Such a field drops
// data like a field without a counterpart does, only in JSON: settleDrops
// says which values (model.Drop), the generated conversion writes what JSON
// would read back, its lossy_ check reports them, and the stash keeps them.
//
// Only an empty list or map ([] or {}, a []byte's "") counts here: omitempty
// leaves it out and JSON reads it back as nil. A zero value that is no
// pointer, a struct or a number, reads back as the same zero value. A
// pointer whose IsZero says true (a *Quantity of "0") under omitzero on one
// side only is not stashed: the hub's own JSON drops it, whatever the
// conversion does, so the hub cannot keep it for its clients, and a round
// trip through the hub cannot give a spoke's "0" back without writing a
// stash on the hub's own objects; reportHubDrops warns of it instead.

// settleDrops decides every field conversion's Drop and DropLoses.
func settleDrops(pairs []*model.TypePair) {
	for _, tp := range pairs {
		for _, d := range tp.Directions() {
			for _, fc := range d.Fields {
				fc.Drop, fc.DropLoses = drop(d, fc)
			}
		}
	}
}

// drop is what one side of fc leaves out of JSON that the other writes,
// and reads back as nil, and whether it is the destination's (lost).
func drop(d *model.Direction, fc *model.FieldConv) (model.Drop, bool) {
	if fc.Mapping.OptOut || len(fc.Source) == 0 || len(fc.Dest) == 0 {
		return model.DropNone, false
	}
	src, dst := tagOf(d.From, fc.Source), tagOf(d.To, fc.Dest)
	from, to := fc.Source[len(fc.Source)-1].Type(), fc.Dest[len(fc.Dest)-1].Type()
	if !src.written || !dst.written || src.omitEmpty == dst.omitEmpty || !emptiable(from) || !emptiable(to) {
		return model.DropNone, false
	}
	return model.DropEmpty, dst.omitEmpty
}

// jsonTag is what a field's json tag says of how JSON writes it.
type jsonTag struct {
	// written: the field is a member of its own, not "-" nor inline.
	written             bool
	omitEmpty, omitZero bool
}

// tagOf reads the json tag of the last field of path, a path of fields
// from root, in the struct that holds it.
func tagOf(root types.Type, path []*types.Var) jsonTag {
	holder := root
	if len(path) > 1 {
		holder = model.Deref(path[len(path)-2].Type())
	}
	st, ok := holder.Underlying().(*types.Struct)
	if !ok {
		return jsonTag{}
	}
	f := path[len(path)-1]
	for i := range st.NumFields() {
		if st.Field(i) != f {
			continue
		}
		name, opts, _ := strings.Cut(reflect.StructTag(st.Tag(i)).Get("json"), ",")
		options := strings.Split(opts, ",")
		return jsonTag{
			written:   name != "-" && !f.Embedded() && !slices.Contains(options, "inline"),
			omitEmpty: slices.Contains(options, "omitempty"),
			omitZero:  slices.Contains(options, "omitzero"),
		}
	}
	return jsonTag{}
}

// emptiable reports whether t is a slice or map, whose empty value JSON
// writes apart from nil.
func emptiable(t types.Type) bool {
	switch t.Underlying().(type) {
	case *types.Slice, *types.Map:
		return true
	}
	return false
}

// reportHubDrops warns at every hub field that omitzero leaves out of JSON
// where the spoke's field writes it: a zero struct ({}), or a value whose
// IsZero says true (a Quantity of "0"). Converting into the hub, the
// webhook writes the hub's JSON, which drops it: a client that wrote it
// into the hub reads it back absent once the object went through another
// version, and no stash can restore it, since the hub itself never holds
// it in JSON. A spoke's zero, converted into the hub, is kept: the stash
// holds what the hub's JSON drops (runtime/lossless/jsonhides.go).
func (p *pairer) reportHubDrops() {
	for _, tp := range p.order {
		d := tp.ToHub
		if tp.OptOut || d.Manual != nil || !d.Needed {
			continue
		}
		for _, fc := range d.Fields {
			if fc.Mapping.OptOut || len(fc.Source) == 0 || len(fc.Dest) == 0 {
				continue
			}
			src, dst := tagOf(d.From, fc.Source), tagOf(d.To, fc.Dest)
			to := fc.Dest[len(fc.Dest)-1]
			if src.written && dst.written && dst.omitZero && !src.omitZero && zeroDropsData(to.Type()) {
				p.warnHubDrop(to.Pos(), d, fc)
			}
		}
	}
}

// zeroDropsData reports whether omitzero can leave out a value of t that
// JSON writes as something other than null: a struct held by value, or a
// type with an IsZero of its own (of t, or of *t for a t that is no
// pointer).
func zeroDropsData(t types.Type) bool {
	if zeroWritesNull(t) {
		return false
	}
	if _, ok := t.Underlying().(*types.Struct); ok {
		return true
	}
	return gotype.ZeroMethod(t)
}

// warnHubDrop warns that the hub field fc converts into, at pos, leaves
// out zero values that the spoke's writes.
func (p *pairer) warnHubDrop(pos token.Pos, d *model.Direction, fc *model.FieldConv) {
	hub := d.To.Obj().Name() + "." + pathName(fc.Dest)
	spoke := d.From.Obj().Name() + "." + pathName(fc.Source)
	p.diags.Warnf(pos, "%s %s leaves out a zero value that %s writes (omitzero)", d.ToVersion.Name, hub, d.FromVersion.Name).
		Note("a zero value (a {} or a \"0\") a client writes at %s reads back absent once the object went through %s, and nothing can restore it", d.ToVersion.Name, d.FromVersion.Name).
		Help("give it the JSON options of %s %s, or drop omitzero", d.FromVersion.Name, spoke)
}

// nullZeros are the types whose MarshalJSON writes their zero value as
// null: metav1's times. The API server prunes a null member of a schema
// that is not nullable, so the spoke's zero reads back absent whatever the
// hub's tag says: omitzero there loses nothing.
var nullZeros = map[string][]string{
	"k8s.io/apimachinery/pkg/apis/meta/v1": {"Time", "MicroTime"},
}

// zeroWritesNull reports whether t, or the type t points to, writes its
// zero value as null.
func zeroWritesNull(t types.Type) bool {
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := types.Unalias(t).(*types.Named)
	if !ok || n.Obj().Pkg() == nil {
		return false
	}
	return slices.Contains(nullZeros[n.Obj().Pkg().Path()], n.Obj().Name())
}
