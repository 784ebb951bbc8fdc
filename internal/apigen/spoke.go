package apigen

import (
	"fmt"
	"slices"
)

// spoke draws a spoke version's types from the hub's: each struct keeps the
// hub's name (so that the generated conversion pairs them), and some of its
// fields are dropped, added, renamed, moved out of a nested struct,
// widened or narrowed, or tagged otherwise.
func (d *drawer) spoke(hub []*Struct) []*Struct {
	out := make([]*Struct, len(hub))
	for i, s := range hub {
		out[i] = cloneStruct(s)
	}
	d.types = out
	frozen := map[*Field]bool{}
	for _, s := range out {
		d.move(s, frozen)
	}
	for _, s := range out {
		d.mutate(s, frozen)
	}
	return d.types
}

func cloneStruct(s *Struct) *Struct {
	c := &Struct{Name: s.Name, Markers: slices.Clone(s.Markers)}
	for _, f := range s.Fields {
		cf := *f
		cf.Opts = slices.Clone(f.Opts)
		cf.Markers = slices.Clone(f.Markers)
		c.Fields = append(c.Fields, &cf)
	}
	return c
}

// move moves, sometimes, a leaf field of a struct that s holds by value out
// into s itself: the hub keeps it nested, the spoke marks where.
func (d *drawer) move(s *Struct, frozen map[*Field]bool) {
	if !d.chance(15) {
		return
	}
	for _, holder := range s.Fields {
		if holder.Inline() || holder.Skip || holder.Type.Kind != Named || frozen[holder] {
			continue
		}
		nested := d.lookup(holder.Type.Name)
		for i, x := range nested.Fields {
			if x.Inline() || x.Skip || x.Type.Kind != Leaf || x.Name == "Key" {
				continue
			}
			nested.Fields = slices.Delete(nested.Fields, i, i+1)
			d.n++
			moved := &Field{Name: fmt.Sprintf("Moved%s%d", x.Name, d.n), JSON: fmt.Sprintf("moved%d", d.n),
				Type: x.Type, Opts: x.Opts, Markers: append(slices.Clone(x.Markers), "+crdforge:hubfield="+holder.Name+"."+x.Name)}
			s.Fields = append(s.Fields, moved)
			frozen[holder], frozen[moved] = true, true
			return
		}
	}
}

// mutate drops, renames, retypes and retags some of s's fields, and adds
// one of the spoke's own sometimes.
func (d *drawer) mutate(s *Struct, frozen map[*Field]bool) {
	var kept []*Field
	for _, f := range s.Fields {
		if frozen[f] || f.Inline() || f.Name == "Key" {
			kept = append(kept, f)
			continue
		}
		switch p := d.r.IntN(100); {
		case p < 10:
			continue // the hub's own
		case p < 18:
			d.n++
			f.Markers = append(f.Markers, "+crdforge:hubfield="+f.Name)
			f.Name = fmt.Sprintf("Old%s%d", f.Name, d.n)
			f.JSON = fmt.Sprintf("old%d", d.n)
		case p < 28:
			f.Opts = d.tagOpts()
		case p < 34:
			f.Type = otherWidth(f.Type)
		}
		kept = append(kept, f)
	}
	s.Fields = kept
	if d.chance(15) {
		d.n++
		word := fieldWords[d.r.IntN(len(fieldWords))]
		f := &Field{Name: fmt.Sprintf("Legacy%s%d", word, d.n), JSON: fmt.Sprintf("legacy%d", d.n), Type: d.fieldType(2, word), Opts: d.tagOpts()}
		s.Fields = append(s.Fields, f)
	}
}

// otherWidth is t with an integer leaf (or a pointer to one) of the other
// width: the spoke widens or narrows the hub's.
func otherWidth(t *Type) *Type {
	switch {
	case t.Kind == Ptr:
		return &Type{Kind: Ptr, Elem: otherWidth(t.Elem)}
	case t.Kind != Leaf:
		return t
	case t.Leaf == leafInt32:
		return &Type{Kind: Leaf, Leaf: leafInt64}
	case t.Leaf == leafInt64:
		return &Type{Kind: Leaf, Leaf: leafInt32}
	}
	return t
}
