package apigen

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
)

// Object is a drawn object of one version, as a client writes it, and an
// edit of each other version's spec, which a client makes between two
// conversions.
type Object struct {
	Version string          `json:"version"`
	Object  json.RawMessage `json:"object"`
	Edits   map[string]Edit `json:"edits,omitempty"`
}

// Edit sets the member at Path (from the object's root) to Value.
type Edit struct {
	Path  []string        `json:"path"`
	Value json.RawMessage `json:"value"`
}

// Objects draws n objects of each kind at each version.
func (api *API) Objects(n int) []Object {
	r := rand.New(rand.NewPCG(api.Seed, 0x6f626a65637473)) //nolint:gosec // a test's reproducible draw
	var out []Object
	for _, k := range api.Kinds {
		for _, v := range api.Versions {
			for i := range n {
				o := &objectDrawer{r: r, types: k.Types[v]}
				obj := Object{Version: v, Object: json.RawMessage(o.object(api.Group, k, v, i)), Edits: map[string]Edit{}}
				for _, w := range api.Versions {
					ew := &objectDrawer{r: r, types: k.Types[w]}
					if e, ok := ew.edit(k); ok && w != v {
						obj.Edits[w] = e
					}
				}
				out = append(out, obj)
			}
		}
	}
	return out
}

type objectDrawer struct {
	r     *rand.Rand
	types []*Struct
}

func (o *objectDrawer) chance(percent int) bool { return o.r.IntN(100) < percent }

func (o *objectDrawer) lookup(name string) *Struct {
	for _, s := range o.types {
		if s.Name == name {
			return s
		}
	}
	panic("apigen: no type " + name)
}

// object is the JSON text of the i-th object of kind k at version v.
func (o *objectDrawer) object(group string, k *Kind, v string, i int) string {
	var b strings.Builder
	fmt.Fprintf(&b, `{"apiVersion":%q,"kind":%q,"metadata":{"name":"o%d"`, group+"/"+v, k.Name, i)
	if o.chance(30) {
		b.WriteString(`,"labels":{"app":"x"}`)
	}
	if o.chance(20) {
		b.WriteString(`,"annotations":{"note":"\u00e9"}`)
	}
	b.WriteString(`}`)
	if o.chance(90) {
		b.WriteString(`,"spec":` + o.structValue(k.Name+"Spec", 0))
	}
	if k.Status && o.chance(70) {
		b.WriteString(`,"status":` + o.structValue(k.Name+"Status", 0))
	}
	if o.chance(5) {
		b.WriteString(`,"zzUnknown":{"a":1}`)
	}
	b.WriteString(`}`)
	return b.String()
}

// structValue is a JSON object of the struct named name.
func (o *objectDrawer) structValue(name string, depth int) string {
	var members []string
	o.members(o.lookup(name), depth, &members, "")
	if o.chance(5) {
		members = append(members, `"zzUnknown":null`)
	}
	return "{" + strings.Join(members, ",") + "}"
}

// members appends the members of s's fields (promoted ones too); key, when
// set, is the value of a list map element's key.
func (o *objectDrawer) members(s *Struct, depth int, out *[]string, key string) {
	for _, f := range s.Fields {
		switch {
		case f.Inline():
			inner := f.Type
			if inner.Kind == Ptr {
				inner = inner.Elem
			}
			o.members(o.lookup(inner.Name), depth, out, "")
		case f.Skip:
		case f.Name == "Key" && key != "":
			*out = append(*out, `"key":`+key)
		case o.chance(35):
		default:
			*out = append(*out, fmt.Sprintf("%q:%s", f.JSON, o.fieldValue(f, depth)))
		}
	}
}

// fieldValue is a value of field f: explicit nulls and zeros included.
func (o *objectDrawer) fieldValue(f *Field, depth int) string {
	if isEnum(f) {
		if f.Type.Kind == Ptr && o.chance(15) {
			return "null"
		}
		return []string{`"a"`, `"b"`, `""`}[o.r.IntN(3)]
	}
	return o.value(f.Type, depth, hasListMap(f))
}

func isEnum(f *Field) bool {
	for _, m := range f.Markers {
		if strings.HasPrefix(m, "+kubebuilder:validation:Enum=") {
			return true
		}
	}
	return false
}

func hasListMap(f *Field) bool {
	for _, m := range f.Markers {
		if m == "+listType=map" {
			return true
		}
	}
	return false
}

// value is a JSON value of t; keyed lists get elements of distinct keys.
func (o *objectDrawer) value(t *Type, depth int, keyed bool) string {
	switch t.Kind {
	case Leaf:
		return t.Leaf.Values[o.r.IntN(len(t.Leaf.Values))]
	case Named:
		return o.structValue(t.Name, depth+1)
	case Ptr:
		if o.chance(15) {
			return "null"
		}
		return o.value(t.Elem, depth, false)
	case Slice:
		return o.list(t, depth, keyed)
	}
	if o.chance(10) {
		return "null"
	}
	n := o.r.IntN(3)
	if depth > 2 {
		n = o.r.IntN(2)
	}
	var members []string
	for i := range n {
		members = append(members, fmt.Sprintf(`"k%d":%s`, i, o.value(t.Elem, depth+1, false)))
	}
	return "{" + strings.Join(members, ",") + "}"
}

func (o *objectDrawer) list(t *Type, depth int, keyed bool) string {
	if o.chance(10) {
		return "null"
	}
	n := o.r.IntN(4)
	if depth > 2 {
		n = o.r.IntN(2)
	}
	if t.Elem.Kind == Leaf && t.Elem.Leaf == leafCondition {
		n = min(n, 1) // one condition: its type is the key
	}
	var elems []string
	for i := range n {
		if keyed && t.Elem.Kind == Named {
			var members []string
			o.members(o.lookup(t.Elem.Name), depth+1, &members, fmt.Sprintf(`"k%d"`, i))
			elems = append(elems, "{"+strings.Join(members, ",")+"}")
			continue
		}
		elems = append(elems, o.value(t.Elem, depth+1, false))
	}
	return "[" + strings.Join(elems, ",") + "]"
}

// edit draws a new value for a member of k's spec, as a client of the
// drawer's version would set it; none when the spec has no field to set.
func (o *objectDrawer) edit(k *Kind) (Edit, bool) {
	var fields []*Field
	o.settable(o.lookup(k.Name+"Spec"), &fields)
	if len(fields) == 0 {
		return Edit{}, false
	}
	f := fields[o.r.IntN(len(fields))]
	return Edit{Path: []string{"spec", f.JSON}, Value: json.RawMessage(o.fieldValue(f, 1))}, true
}

// settable lists the fields of s a client sets, promoted ones too.
func (o *objectDrawer) settable(s *Struct, out *[]*Field) {
	for _, f := range s.Fields {
		switch {
		case f.Inline():
			inner := f.Type
			if inner.Kind == Ptr {
				inner = inner.Elem
			}
			o.settable(o.lookup(inner.Name), out)
		case !f.Skip:
			*out = append(*out, f)
		}
	}
}
