package apigen

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// versionNames are the versions an API is drawn at, in package order.
var versionNames = []string{"v1alpha1", "v1beta1", "v1", "v2"}

// kindNames and fieldWords name the drawn kinds and fields.
var (
	kindNames  = []string{"Widget", "Gadget", "Sprocket"}
	fieldWords = []string{
		"Size", "Name", "Count", "Image", "Ports", "Labels", "Note", "Mode", "Limit", "Host",
		"Port", "Tags", "Items", "Config", "Extra", "Weight", "Until", "Period", "Ref", "Data",
		"Options", "Phase", "Target", "Window", "Owner", "Memory", "Volume", "Shard",
	}
)

// Draw draws the API of a seed.
func Draw(seed uint64) *API {
	r := rand.New(rand.NewPCG(seed, 0x61706967656e)) //nolint:gosec // a test's reproducible draw
	api := &API{Seed: seed, Group: fmt.Sprintf("s%d.apigen.example.com", seed)}
	api.Versions = versionNames[:2+r.IntN(3)]
	api.Hub = api.Versions[r.IntN(len(api.Versions))]
	for _, name := range kindNames[:1+r.IntN(len(kindNames))] {
		k := &Kind{Name: name, Status: r.IntN(3) > 0, Types: map[string][]*Struct{}}
		d := &drawer{r: r, prefix: name}
		hub := d.kindTypes(k)
		k.Types[api.Hub] = hub
		for _, v := range api.Versions {
			if v != api.Hub {
				k.Types[v] = d.spoke(hub)
			}
		}
		api.Kinds = append(api.Kinds, k)
	}
	return api
}

// drawer draws the types of one kind.
type drawer struct {
	r      *rand.Rand
	prefix string // the kind's name, which starts its types' names
	types  []*Struct
	n      int // types drawn so far, which numbers the next
}

func (d *drawer) chance(percent int) bool { return d.r.IntN(100) < percent }

// kindTypes draws the hub's types of k: the spec, the status, and the
// structs they use.
func (d *drawer) kindTypes(k *Kind) []*Struct {
	d.types = nil
	spec := d.structType(k.Name+"Spec", 0, nil)
	status := &Struct{Name: k.Name + "Status"}
	if k.Status {
		status = d.structType(k.Name+"Status", 1, nil)
		if d.chance(30) {
			status.Fields = append(status.Fields, &Field{
				Name: "Conditions", JSON: "conditions", Opts: []string{"omitempty"},
				Type:    &Type{Kind: Slice, Elem: &Type{Kind: Leaf, Leaf: leafCondition}},
				Markers: []string{"+listType=map", "+listMapKey=type"},
			})
		}
	}
	return append([]*Struct{spec, status}, d.types...)
}

// leafCondition is metav1.Condition, only in statuses' conditions.
var leafCondition = &LeafType{Go: "metav1.Condition", Import: metav1Import, Alias: "metav1",
	Values: []string{`{"type":"Ready","status":"True","lastTransitionTime":"2030-01-02T03:04:05Z","reason":"R","message":""}`}}

// structType draws a struct named name; used holds the JSON names of the
// object it is inlined in, if it is.
func (d *drawer) structType(name string, depth int, used map[string]bool) *Struct {
	s := &Struct{Name: name}
	if used == nil {
		used = map[string]bool{}
	}
	n := d.r.IntN(6)
	if depth > 1 {
		n = d.r.IntN(3)
	}
	for range n {
		if f := d.field(depth, used); f != nil {
			s.Fields = append(s.Fields, f)
		}
	}
	if len(s.Fields) > 0 && d.chance(10) {
		s.Markers = append(s.Markers, `+kubebuilder:validation:XValidation:rule="self == self",message="always"`)
	}
	return s
}

// field draws a field whose JSON name is not in used, and adds its names.
func (d *drawer) field(depth int, used map[string]bool) *Field {
	if depth < 2 && d.chance(7) {
		return d.inlineField(depth, used)
	}
	word := d.freeWord(used)
	if word == "" {
		return nil
	}
	f := &Field{Name: word, JSON: d.jsonName(word), Type: d.fieldType(depth, word)}
	for used[f.JSON] {
		f.JSON += "x"
	}
	used[f.JSON], used[goKey(word)] = true, true
	f.Opts = d.tagOpts()
	if d.chance(3) {
		f.Skip = true
	}
	d.fieldMarkers(f)
	if f.Type.Kind == Slice && f.Type.Elem.Kind == Named && d.chance(25) {
		d.listMap(f)
	}
	return f
}

// listMap makes f, a slice of structs, a list map keyed by a required
// string its elements get first.
func (d *drawer) listMap(f *Field) {
	s := d.lookup(f.Type.Elem.Name)
	s.Fields = append([]*Field{{Name: "Key", JSON: "key", Type: &Type{Kind: Leaf, Leaf: leafString}}}, s.Fields...)
	f.Markers = append(f.Markers, "+listType=map", "+listMapKey=key")
}

// lookup finds a drawn type by name.
func (d *drawer) lookup(name string) *Struct {
	for _, s := range d.types {
		if s.Name == name {
			return s
		}
	}
	panic("apigen: no type " + name)
}

// inlineField draws an embedded struct, by value or by pointer, whose
// fields JSON promotes into used's object.
func (d *drawer) inlineField(depth int, used map[string]bool) *Field {
	d.n++
	name := fmt.Sprintf("%sEmbedded%d", d.prefix, d.n)
	s := d.structType(name, depth+1, used)
	d.types = append(d.types, s)
	t := &Type{Kind: Named, Name: name}
	if d.chance(50) {
		t = &Type{Kind: Ptr, Elem: t}
	}
	return &Field{Type: t, Opts: []string{"inline"}}
}

// freeWord is a field word whose JSON name is free, "" when none is.
func (d *drawer) freeWord(used map[string]bool) string {
	for range 8 {
		w := fieldWords[d.r.IntN(len(fieldWords))]
		if !used[lowerFirst(w)] && !used[w] && !used[goKey(w)] {
			return w
		}
	}
	return ""
}

// jsonName is mostly the lower camel case of word, sometimes a name no
// convention would give.
func (d *drawer) jsonName(word string) string {
	switch d.r.IntN(20) {
	case 0:
		return strings.ToLower(word) + "_x"
	case 1:
		return "x-" + strings.ToLower(word)
	case 2:
		return word
	}
	return lowerFirst(word)
}

// goKey is the key of a Go field name in a set of used names, apart from
// JSON names (which no Go name starts with a colon).
func goKey(name string) string { return ":" + name }

func lowerFirst(s string) string { return strings.ToLower(s[:1]) + s[1:] }

// tagOpts draws the options of a field's tag.
func (d *drawer) tagOpts() []string {
	switch p := d.r.IntN(100); {
	case p < 50:
		return []string{"omitempty"}
	case p < 62:
		return []string{"omitzero"}
	case p < 67:
		return []string{"omitempty", "omitzero"}
	}
	return nil
}

// fieldType draws the type of a field named word at depth.
func (d *drawer) fieldType(depth int, word string) *Type {
	p := d.r.IntN(100)
	if depth >= 3 {
		p %= 55
	}
	switch {
	case p < 45:
		return d.leaf()
	case p < 55:
		return &Type{Kind: Ptr, Elem: d.leafNotNullable()}
	case p < 64:
		return d.named(depth, word)
	case p < 70:
		return &Type{Kind: Ptr, Elem: d.named(depth, word)}
	case p < 85:
		return &Type{Kind: Slice, Elem: d.elemType(depth, word)}
	}
	return &Type{Kind: Map, Elem: d.elemType(depth, word)}
}

// elemType draws the element type of a slice or map.
func (d *drawer) elemType(depth int, word string) *Type {
	switch p := d.r.IntN(100); {
	case p < 45:
		return d.leafNotNullable()
	case p < 80:
		return d.named(depth, word)
	case p < 90:
		return &Type{Kind: Ptr, Elem: d.named(depth, word)}
	}
	return &Type{Kind: Ptr, Elem: d.leafNotNullable()}
}

func (d *drawer) leaf() *Type {
	return &Type{Kind: Leaf, Leaf: leaves[d.r.IntN(len(leaves))]}
}

// leafNotNullable draws a leaf a pointer, slice or map holds: not a slice
// or map itself (a map of []byte is fine in Go, but the drawn shapes keep
// one level of each).
func (d *drawer) leafNotNullable() *Type {
	for {
		if t := d.leaf(); !t.Leaf.Nullable {
			return t
		}
	}
}

// named draws a new struct type for a field named word.
func (d *drawer) named(depth int, word string) *Type {
	d.n++
	name := fmt.Sprintf("%s%s%d", d.prefix, word, d.n)
	s := d.structType(name, depth+1, nil)
	d.types = append(d.types, s)
	return &Type{Kind: Named, Name: name}
}

// fieldMarkers draws the markers of f: a default, an enum, a list map.
func (d *drawer) fieldMarkers(f *Field) {
	t := f.Type
	if t.Kind == Ptr && t.Elem.Kind == Leaf {
		t = t.Elem
	}
	if t.Kind == Leaf && t.Leaf.Ordered && d.chance(12) {
		f.Markers = append(f.Markers, "+kubebuilder:default="+d.defaultValue(t.Leaf))
	}
	if t.Kind == Leaf && t.Leaf == leafString && d.chance(8) {
		f.Markers = append(f.Markers, `+kubebuilder:validation:Enum=a;b;""`)
	}
}

// defaultValue is a default a user would write for a leaf.
func (d *drawer) defaultValue(l *LeafType) string {
	switch l {
	case leafString:
		return []string{`"a"`, `""`}[d.r.IntN(2)]
	case leafBool:
		return []string{"true", "false"}[d.r.IntN(2)]
	}
	return []string{"0", "1", "3"}[d.r.IntN(3)]
}
