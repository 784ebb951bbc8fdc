package lossless

import (
	"reflect"
	"strings"
	"sync"
)

// Fields are the fields of root type S where a Checked direction can lose
// data, as its generated lossy_ check reads them. Telling the direction (see
// Direction.LostIn) lets the sparse stash compare only these fields of the
// source and its round trip instead of all of them: the diff is most of what
// a stash costs, and a check that knows where the losses are has already
// said that the other fields come back as they were.
//
// Build one per direction, once, with LostIn: the fields are resolved on
// first use and kept.
type Fields[S any] struct {
	diff func() ([]diffField, bool)
}

// LostIn names the fields of S where a direction can lose data, each as the
// selector of Go field names that leads to it from S ("Spec.Warranty"; an
// embedded struct by its type's name). A path may go further than the
// sparse stash looks (into a pointer, a slice, a map, or a struct with a
// JSON form of its own): the field where the stash stops is compared whole.
//
// A path that names no field of S (a generator bug, or a type changed by
// hand since) makes the set mean every field: the stash compares the whole
// object, as it would without the set.
func LostIn[S any](paths ...string) *Fields[S] {
	return &Fields[S]{diff: sync.OnceValues(func() ([]diffField, bool) {
		return narrowDiff(reflect.TypeOf((*S)(nil)).Elem(), paths)
	})}
}

// LostIn says that the direction loses data only in fields: its sparse
// stash compares the source with its round trip there alone. It applies to
// a Checked direction, and only while no earlier stash was restored onto the
// converted object; a restored field may convert back into any field of the
// source, and then the whole object is compared.
func (d Direction[S, D]) LostIn(fields *Fields[S]) Direction[S, D] {
	d.lostIn = fields
	return d
}

// narrowDiff returns the sparse diff of root type t cut to the fields at
// paths (and whatever lies inside them), and false when the diff cannot be
// narrowed: the root is not walkable, or a path names no field.
func narrowDiff(t reflect.Type, paths []string) ([]diffField, bool) {
	full, ok := rootDiff(t)
	if !ok || len(paths) == 0 {
		return nil, false
	}
	var want fieldSpots
	for _, p := range paths {
		if !want.add(t, p) {
			return nil, false
		}
	}
	return want.keep(full, 0), true
}

// A fieldSpot is a field as the diff and the paths can both name it: its
// offset from the root and its type. Two fields share both only when one is
// of a type of size zero, and then keeping both costs a comparison at most.
type fieldSpot struct {
	offset uintptr
	typ    reflect.Type
}

// fieldSpots are the fields at the ends of the paths, whose values are
// compared whole, and those on the way to them.
type fieldSpots struct {
	ends     []fieldSpot
	onTheWay map[fieldSpot]bool
}

// add resolves path in root type t, and reports whether it names fields
// all the way, or as far as a value that is not a struct held by value.
func (s *fieldSpots) add(t reflect.Type, path string) bool {
	if s.onTheWay == nil {
		s.onTheWay = map[fieldSpot]bool{}
	}
	var at uintptr
	names := strings.Split(path, ".")
	for i, name := range names {
		sf, ok := t.FieldByName(name)
		if !ok {
			return false
		}
		for j, cur := range sf.Index {
			step := t.Field(cur)
			at += step.Offset
			t = step.Type
			if j < len(sf.Index)-1 && t.Kind() != reflect.Struct {
				// Promoted through an embedded pointer: the diff
				// compares what it points at as one field.
				s.ends = append(s.ends, fieldSpot{at, t})
				return true
			}
		}
		spot := fieldSpot{at, t}
		if i == len(names)-1 || t.Kind() != reflect.Struct {
			s.ends = append(s.ends, spot)
			return true
		}
		s.onTheWay[spot] = true
	}
	return true
}

// inEnd reports whether the field of type typ at offset at from the root
// is an end or lies within one: an end that is an embedded struct, which
// the diff promotes the fields of, is those fields.
func (s *fieldSpots) inEnd(at uintptr, typ reflect.Type) bool {
	for _, e := range s.ends {
		if at == e.offset && typ == e.typ || at >= e.offset && at+typ.Size() <= e.offset+e.typ.Size() && typ.Size() > 0 {
			return true
		}
	}
	return false
}

// keep returns the fields of fields, a struct at offset base from the root,
// that are at or inside an end, or on the way to one.
func (s *fieldSpots) keep(fields []diffField, base uintptr) []diffField {
	var out []diffField
	for _, f := range fields {
		spot := fieldSpot{base + f.offset, f.typ}
		switch {
		case s.inEnd(spot.offset, f.typ):
			out = append(out, f)
		case s.onTheWay[spot] && f.sub != nil:
			if sub := s.keep(f.sub, spot.offset); len(sub) > 0 {
				f.sub = sub
				out = append(out, f)
			}
		case s.onTheWay[spot]:
			// The diff stores this struct whole (it has a JSON form of
			// its own): the path ends here for it.
			out = append(out, f)
		}
	}
	return out
}
