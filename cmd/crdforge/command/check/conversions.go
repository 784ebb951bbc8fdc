package check

import (
	"fmt"
	"go/types"
	"maps"
	"reflect"
	"slices"
	"strings"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"

	"github.com/crdforge/crdforge/generators/model"
)

// Where a property's values live, across versions, is a question of the
// model's field mapping, not of JSON paths: a spoke's field converts to the
// hub field its mapping names (a field of the same Go name, one that
// +crdforge:hubfield names, possibly moved into a nested struct, or the
// enclosing struct itself), whatever either is called in JSON; a spoke
// field with no counterpart lives in the hub's stash annotation, for that
// spoke alone. So each property of each version is given its identity: the
// hub's property path its values live at. Two properties of two versions,
// or of the baseline and the working tree, with the same identity hold the
// same data.

// identity is where a version's property lives in the hub.
type identity struct {
	// id is the hub's property path (^.spec.displayName), or, for a
	// spoke's field the hub lacks, "stash <version> <path>".
	id string
	// exact says the model mapped every step; otherwise the property is
	// assumed to live at its own path (a tree without a model, a type
	// crdforge does not convert field by field).
	exact bool
	// mapping is the mapping of the property's own field, for a spoke's
	// field that has one; pair the type pair it belongs to.
	mapping *model.Mapping
	pair    *model.TypePair
	// handWritten names the hand-written function that converts the
	// property's struct, when one does: then crdforge cannot tell where the
	// values go.
	handWritten string
}

// tree answers identities for the CRDs of one side; nil for a side with no
// Go sources (files, a cluster): every property lives at its own path.
type tree struct {
	loc ModelLocator
}

// treeOf returns the tree behind a locator, nil for none.
func treeOf(l Locator) *tree {
	ml, ok := l.(ModelLocator)
	if !ok || ml.Model == nil {
		return nil
	}
	return &tree{loc: ml}
}

// identity returns where the property at path of the CRD's version lives.
func (t *tree) identity(crd, version, path string) identity {
	own := identity{id: path}
	if t == nil {
		return own
	}
	k := t.loc.kind(crd)
	if k == nil || k.Hub == nil {
		return own
	}
	if k.Hub.Name == version {
		own.exact = true
		return own
	}
	var spoke *model.Spoke
	for _, s := range k.Spokes {
		if s.Version.Name == version {
			spoke = s
		}
	}
	steps, ok := splitPath(path)
	if spoke == nil || !ok {
		return own
	}
	w := &pathWalk{own: own, id: identity{id: "^"}, cur: spoke.Version.Type, hub: k.Hub.Type, version: version, path: path,
		pairs: map[*types.TypeName]*model.TypePair{}}
	for _, tp := range spoke.Pairs {
		w.pairs[tp.Spoke.Obj()] = tp
	}
	for i, step := range steps {
		if types.Identical(w.cur, w.hub) {
			// One type on both sides: the rest of the path is the same.
			for _, same := range steps[i:] {
				w.id.id += same.String()
			}
			w.id.exact = true
			return w.id
		}
		if stop, ok := w.step(step); !ok {
			return stop
		}
	}
	w.id.exact = true
	return w.id
}

// pathWalk follows a spoke's property path through its type pairs to the
// hub's path.
type pathWalk struct {
	own, id       identity
	cur, hub      types.Type
	version, path string
	pairs         map[*types.TypeName]*model.TypePair
}

// step follows one step of the path; false with the identity to return
// when the walk stops there.
func (w *pathWalk) step(step pathStep) (identity, bool) {
	if step.items {
		c, ok1 := elem(w.cur)
		h, ok2 := elem(w.hub)
		if !ok1 || !ok2 {
			return w.own, false
		}
		w.cur, w.hub = c, h
		w.id.id += "[*]"
		return identity{}, true
	}
	n, ok := model.Deref(w.cur).(*types.Named)
	if !ok {
		return w.own, false
	}
	tp := w.pairs[n.Obj()]
	if tp == nil {
		return w.own, false
	}
	if d := tp.ToHub; d.Manual != nil || tp.OptOut {
		w.own.handWritten = d.Func
		return w.own, false
	}
	f := directField(tp.Spoke, step.name)
	if f == nil {
		return w.own, false
	}
	var m *model.Mapping
	for _, mp := range tp.Mappings {
		if mp.Spoke == f {
			m = mp
		}
	}
	if m == nil {
		if slices.Contains(tp.ToHub.SourceOnly, f) {
			return identity{id: "stash " + w.version + " " + w.path, exact: true, pair: tp}, false
		}
		return w.own, false
	}
	w.id.mapping, w.id.pair = m, tp
	w.cur = f.Type()
	if m.Whole {
		// The field's struct converts to the enclosing hub struct
		// itself: the hub path stays where it is.
		return identity{}, true
	}
	st := model.Deref(w.hub)
	for _, v := range m.HubPath {
		if jn := jsonName(st, v); jn != "" {
			w.id.id += "." + jn
		}
		st = model.Deref(v.Type())
	}
	w.hub = m.HubPath[len(m.HubPath)-1].Type()
	return identity{}, true
}

// goPath names the Go fields a version's property path goes through
// (Spec.Region, Spec.Ports[*].Name); "" when the path leaves the Go types.
func (t *tree) goPath(crd, version, path string) string {
	k := t.loc.kind(crd)
	if k == nil {
		return ""
	}
	v := kindVersion(k, version)
	steps, ok := splitPath(path)
	if v == nil || !ok {
		return ""
	}
	var cur types.Type = v.Type
	var out strings.Builder
	for _, step := range steps {
		if step.items {
			if cur, ok = elem(cur); !ok {
				return ""
			}
			out.WriteString("[*]")
			continue
		}
		f := model.FieldByJSONName(cur, step.name)
		if f == nil {
			return ""
		}
		cur = f.Type()
		out.WriteString("." + f.Name())
	}
	return out.String()
}

// elem is the element of a slice, array or map type (through pointers).
func elem(t types.Type) (types.Type, bool) {
	switch u := model.Deref(t).Underlying().(type) {
	case *types.Slice:
		return u.Elem(), true
	case *types.Array:
		return u.Elem(), true
	case *types.Map:
		return u.Elem(), true
	}
	return nil, false
}

// directField is the field of the struct n declares itself that JSON
// writes as name; nil when it has none, or the name belongs to an embedded
// struct's field (the mapping is the embedded field's then).
func directField(n *types.Named, name string) *types.Var {
	f := model.FieldByJSONName(n, name)
	st, ok := n.Underlying().(*types.Struct)
	if f == nil || !ok {
		return nil
	}
	for i := range st.NumFields() {
		if st.Field(i) == f {
			return f
		}
	}
	return nil
}

// jsonName is the JSON name of field v of struct type t; "" for an embedded
// or inline field, whose fields JSON writes in its parent.
func jsonName(t types.Type, v *types.Var) string {
	st, ok := t.Underlying().(*types.Struct)
	if !ok {
		return v.Name()
	}
	for i := range st.NumFields() {
		if st.Field(i) != v {
			continue
		}
		name, opts, _ := strings.Cut(reflect.StructTag(st.Tag(i)).Get("json"), ",")
		if name == "" && (v.Embedded() || strings.Contains(opts, "inline")) {
			return ""
		}
		if name == "" {
			return v.Name()
		}
		return name
	}
	return v.Name()
}

// conversionFindings reports the properties of versions the baseline had
// whose conversion to or from the hub the generator could express then and
// cannot now: a type changed on one side so that no mechanical conversion
// exists (a string where the hub has an int32, a struct where it has a
// list) and no hand-written Convert_ covers it. crdforge generate warns at
// the field and the conversion does not build until one is written; until
// then no object converts between the two versions. Only a tree from Go
// sources knows its conversions; against files or a cluster, a property
// counts as changed when its schema type did.
func conversionFindings(old, nw *apiextensionsv1.CustomResourceDefinition, ot, nt *tree) []Finding {
	if nt == nil {
		return nil
	}
	oldFields, newFields := flattenAll(old), flattenAll(nw)
	var out []Finding
	for _, nv := range nw.Spec.Versions {
		for _, p := range slices.Sorted(maps.Keys(newFields[nv.Name])) {
			if !oldFields[nv.Name][p] || strings.HasSuffix(p, "[*]") {
				continue
			}
			nid := nt.identity(nw.Name, nv.Name, p)
			d, reason := unconvertible(nid)
			if d == nil {
				continue
			}
			oid := ot.identity(old.Name, nv.Name, p)
			if ot != nil {
				if od, _ := unconvertible(oid); od != nil || oid.mapping == nil {
					continue // as it was: not this change's doing
				}
			} else if a, b := schemaAt(old, nv.Name, p), schemaAt(nw, nv.Name, p); a == nil || b == nil || a.Type == b.Type {
				continue
			}
			f := Finding{Rule: "conversionTypeChange", CRD: nw.Name, Version: nv.Name, Path: p,
				Message: fmt.Sprintf("converting %s, %s no longer converts mechanically (%s): the generated conversion cannot carry it, and objects fail to convert until a hand-written %s does",
					d.Describe(), d.From.Obj().Name()+"."+nid.mapping.Spoke.Name(), reason, d.Func)}
			if d.FromVersion != nid.pair.SpokeVersion {
				f.Message = fmt.Sprintf("converting %s, %s.%s no longer converts mechanically (%s): the generated conversion cannot carry it, and objects fail to convert until a hand-written %s does",
					d.Describe(), d.From.Obj().Name(), pathNames(nid.mapping.HubPath), reason, d.Func)
			}
			// At the side whose type changed: the hub's field when the
			// spoke's kept its type.
			if oid.mapping != nil && types.TypeString(oid.mapping.Spoke.Type(), nil) == types.TypeString(nid.mapping.Spoke.Type(), nil) && len(nid.mapping.HubPath) > 0 {
				if pos, ok := nt.loc.position(nid.mapping.HubPath[len(nid.mapping.HubPath)-1].Pos()); ok {
					f.Pos = pos
				}
			}
			out = append(out, f)
		}
	}
	return out
}

// unconvertible returns the direction of a property's mapping that needs a
// hand-written conversion nobody wrote, and why; nil when both convert.
func unconvertible(id identity) (*model.Direction, string) {
	m, tp := id.mapping, id.pair
	if m == nil || tp == nil || m.OptOut || tp.OptOut {
		return nil, ""
	}
	for _, fc := range []struct {
		d  *model.Direction
		fc *model.FieldConv
	}{{tp.ToHub, m.ToHub}, {tp.ToSpoke, m.ToSpoke}} {
		if fc.d.Manual != nil || fc.d.WrongSignature {
			continue
		}
		if manual, reason := fc.fc.Conv.Manual(); manual {
			return fc.d, reason
		}
	}
	return nil, ""
}

func pathNames(path []*types.Var) string {
	names := make([]string, len(path))
	for i, v := range path {
		names[i] = v.Name()
	}
	return strings.Join(names, ".")
}
