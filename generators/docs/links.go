package docs

import (
	"go/types"
	"reflect"
	"strings"

	"github.com/crdforge/crdforge/generators/model"
)

// link is what the conversion plan says of one field between a spoke and
// its hub: where it is on either side, and the cell the version map shows
// for the side that lacks it or converts it specially.
type link struct {
	// Hub and Spoke are the field's JSON paths; Hub is "" for a field only
	// the spoke has, Spoke "" for one only the hub has.
	Hub, Spoke string
	// Cell is the spoke's cell of a hub field, or the hub's cell of a field
	// only the spoke has.
	Cell Cell
	// Recursed says the field's struct converts field by field (a type
	// pair), so each of its fields has a link of its own; otherwise the
	// value converts whole and its fields keep their paths below it.
	Recursed bool
}

// links is every link of a spoke, and the narrowings of hub fields into
// the spoke when the spoke is the storage version.
type links struct {
	byHub, bySpoke map[string]*link
	// hubNarrowed is, by hub path, what the storage version allows of a
	// field that the hub does not guarantee.
	hubNarrowed map[string]string
}

// spokeLinks follows the spoke's type pairs from its root pair down, as
// the generated conversions do, and records a link per field.
func spokeLinks(s *model.Spoke) *links {
	w := &linkWalk{spoke: s, out: &links{byHub: map[string]*link{}, bySpoke: map[string]*link{}, hubNarrowed: map[string]string{}},
		onStack: map[*model.Direction]bool{}}
	if len(s.Pairs) > 0 {
		w.pair(s.Pairs[0].ToHub, "", "")
	}
	return w.out
}

// linkWalk is spokeLinks' walk.
type linkWalk struct {
	spoke   *model.Spoke
	out     *links
	onStack map[*model.Direction]bool
}

// pair records the links of the pair whose direction to the hub is toHub,
// whose spoke struct is at spokeAt and hub struct at hubAt.
func (w *linkWalk) pair(toHub *model.Direction, spokeAt, hubAt string) {
	if w.onStack[toHub] {
		return // a recursive type: its fields are recorded already
	}
	w.onStack[toHub] = true
	defer delete(w.onStack, toHub)
	for _, fc := range toHub.Fields {
		sp := join(spokeAt, jsonPath(toHub.From, fc.Source))
		hp := join(hubAt, jsonPath(toHub.To, fc.Dest))
		inner, elems := pairIn(fc.Conv)
		l := &link{Hub: hp, Spoke: sp, Cell: mappedCell(toHub, fc, sp), Recursed: inner != nil}
		w.add(l)
		if inner != nil {
			suffix := strings.Repeat("[*]", elems)
			w.pair(inner, sp+suffix, hp+suffix)
		}
	}
	for _, f := range toHub.SourceOnly {
		w.add(&link{Spoke: join(spokeAt, jsonPath(toHub.From, []*types.Var{f})), Cell: w.unheld(toHub)})
	}
	back := toHub.Reverse
	for _, f := range back.SourceOnly {
		w.add(&link{Hub: join(hubAt, jsonPath(back.From, []*types.Var{f})), Cell: w.unheld(back)})
	}
	for _, path := range back.NestedSourceOnly {
		w.add(&link{Hub: join(hubAt, jsonPath(back.From, path)), Cell: w.unheld(back)})
	}
	for _, fc := range back.Fields {
		if fc.Guard != nil {
			w.out.hubNarrowed[join(hubAt, jsonPath(back.From, fc.Source))] = fc.Guard.Describe()
		}
	}
}

// add records l under its paths; an empty path (a spoke field converted
// into its enclosing hub struct, at the root) is no field of its own.
func (w *linkWalk) add(l *link) {
	if l.Hub != "" {
		w.out.byHub[l.Hub] = l
	}
	if l.Spoke != "" {
		w.out.bySpoke[l.Spoke] = l
	}
}

// mappedCell is the spoke's cell of a field that both sides have: its
// path, unless a hand-written function converts it, with the narrowing
// generated code checks on the way into the hub when that is the storage
// version.
func mappedCell(toHub *model.Direction, fc *model.FieldConv, spokePath string) Cell {
	if manual, _ := fc.Conv.Manual(); manual || fc.Mapping.OptOut {
		return Cell{State: HandWritten, Path: spokePath, Func: toHub.Func}
	}
	if f := handFunc(fc.Conv); f != "" {
		return Cell{State: HandWritten, Path: spokePath, Func: f}
	}
	c := Cell{State: Present, Path: spokePath}
	if fc.Guard != nil {
		c.Narrowed = fc.Guard.Describe()
	}
	return c
}

// unheld is the cell, in d's destination version, of a field only d's
// source has: a hand-written Convert_ of d takes it over; else the stash
// keeps it when crdforge generates the kind's entry point that way
// (lossless.Convert stashes whatever the destination cannot hold); else
// nothing keeps it.
func (w *linkWalk) unheld(d *model.Direction) Cell {
	if d.Manual != nil {
		return Cell{State: HandWritten, Func: d.Manual.Name()}
	}
	root := w.spoke.Pairs[0]
	entry := root.ToHub
	if d.ToVersion != root.HubVersion {
		entry = root.ToSpoke
	}
	if w.spoke.Generates(entry) {
		return Cell{State: Stashed}
	}
	return Cell{}
}

// pairIn finds the type pair a conversion converts through, below any
// pointers, lists and maps, and how many lists and maps lie above it.
func pairIn(c *model.Conv) (*model.Direction, int) {
	elems := 0
	for c != nil {
		switch c.Kind {
		case model.ConvPair:
			return c.Dir, elems
		case model.ConvSlice, model.ConvArray, model.ConvMap:
			elems++
		case model.ConvPointer, model.ConvDeref, model.ConvAddr:
		default:
			return nil, 0
		}
		c = c.Elem
	}
	return nil, 0
}

// handFunc names the hand-written function a conversion calls (ConvFunc
// with Func set, between types that are no pair), or is "".
func handFunc(c *model.Conv) string {
	f := c.Find(func(c *model.Conv) (bool, bool) {
		return c.Kind == model.ConvFunc && c.Func != nil, c.Kind == model.ConvFunc || c.Kind == model.ConvPair
	})
	if f == nil {
		return ""
	}
	return f.Func.Name()
}

// jsonPath is the dotted JSON path of a chain of struct fields from the
// struct t, as encoding/json names them; an inlined field adds nothing.
func jsonPath(t types.Type, vars []*types.Var) string {
	path := ""
	for _, v := range vars {
		st, ok := model.Deref(t).Underlying().(*types.Struct)
		if !ok {
			break
		}
		path = join(path, jsonName(st, v))
		t = v.Type()
	}
	return path
}

// jsonName is the JSON name of field f of st: its tag's, or its Go name;
// "" for an embedded or inline field, whose fields are its parent's.
func jsonName(st *types.Struct, f *types.Var) string {
	for i := range st.NumFields() {
		if st.Field(i) != f {
			continue
		}
		name, opts, _ := strings.Cut(reflect.StructTag(st.Tag(i)).Get("json"), ",")
		switch {
		case name == "" && (f.Embedded() || strings.Contains(opts, "inline")):
			return ""
		case name == "":
			return f.Name()
		}
		return name
	}
	return f.Name()
}
