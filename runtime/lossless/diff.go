package lossless

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"unsafe"
)

// diffField is a field of a struct as the sparse stash's diff reads it,
// worked out once per type: where it is (the sum of the offsets of the
// embedded structs held by value on its way; the fields promoted through an
// embedded pointer are under a diffField of their own, see embed), its JSON
// key, and how its two values are compared. The
// diff runs for every lossy conversion, and finding each field again with
// reflect (FieldByIndex, the comparison's lookup by type) costs more than
// comparing it.
type diffField struct {
	name   string
	key    []byte
	offset uintptr
	typ    reflect.Type
	quoted bool
	// sub are the fields of a struct the stash walks (jsonField.walk);
	// eq compares any other field, a leaf stored whole, by semantic
	// equality but for nil and empty, which JSON writes apart.
	sub []diffField
	// embed: the field is an embedded pointer to a struct, and sub are the
	// fields promoted through it, at offsets from the struct it points at;
	// name and key are its marker's (see embedptr.go).
	embed bool
	eq    eqFunc
	// enc writes the leaf without encoding/json when it can (encoderOf).
	enc leafEncoder
	// nilNull says a nil value of the leaf is JSON null whatever it holds:
	// a pointer, or a slice or map of a type with no JSON method of its
	// own, which encoding/json would be asked for the same four bytes.
	nilNull bool
	// hidesEmbed says the leaf reaches an embedded pointer, whose nil-ness
	// JSON may not show (reachesEmbed): two values eq finds apart may be
	// one to JSON.
	hidesEmbed bool
	// zeroShown: a struct JSON leaves out exactly when it is zero
	// (zeroshown.go), whose zero-ness the diff compares too.
	zeroShown bool
	// omitsZero: an omitzero leaf with an IsZero method, which JSON leaves
	// out wherever IsZero says so: two such values are no difference.
	omitsZero bool
	// keepsZero: the leaf holds a struct JSON shows the zero-ness of, which
	// it is compared and written to keep (keepzero.go).
	keepsZero bool
}

// buildDiff compiles the diff of fields, the JSON fields of struct t (of
// its data only, for a root type).
func buildDiff(t reflect.Type, fields []jsonField) []diffField {
	return buildMembers(t, fields, "", map[reflect.Type]bool{})
}

// buildMembers compiles the diff of fields, JSON fields of struct t, whose
// embedded pointers' markers start with via, the names of those on the way
// to t (see embedptr.go). The fields promoted through one embedded pointer
// become one diffField, which stands for their members. walking holds the
// structs being compiled: a struct that holds itself through a pointer is
// compared whole where it comes round again, which ends the compiling.
func buildMembers(t reflect.Type, fields []jsonField, via string, walking map[reflect.Type]bool) []diffField {
	walking[t] = true
	defer delete(walking, t)
	out := make([]diffField, 0, len(fields))
	for i := 0; i < len(fields); {
		if hop := pointerHop(t, fields[i].index); hop > 0 {
			j := i + 1
			for j < len(fields) && slices.Equal(fields[j].index[:min(hop, len(fields[j].index))], fields[i].index[:hop]) {
				j++
			}
			out = append(out, embedDiff(t, fields[i:j], hop, via, walking))
			i = j
			continue
		}
		out = append(out, fieldDiff(t, fields[i], walking))
		i++
	}
	return out
}

// fieldDiff compiles the diff of f, a JSON field of struct t reached
// through structs held by value.
func fieldDiff(t reflect.Type, f jsonField, walking map[reflect.Type]bool) diffField {
	d := diffField{name: f.name, key: f.key, typ: f.typ, quoted: f.quoted}
	d.offset, _ = offsetOf(t, f.index)
	if f.walk && !walking[f.typ] {
		d.sub = buildMembers(f.typ, fieldsOf(f.typ).fields, "", walking)
		d.zeroShown = zeroShown(f)
		return d
	}
	// Equal as JSON writes them: nil apart from empty (see emptyvalues.go),
	// for the stash to keep a {} or [].
	d.eq, d.enc = jsonEq(eqFor(f.typ), fieldNilFor(f.typ, f.omitEmpty)), encoderOf(f.typ)
	d.hidesEmbed = reachesEmbed(f.typ, map[reflect.Type]bool{})
	d.omitsZero = f.omitZero && hasIsZero(f.typ)
	d.keepsZero = reachesZeroShown(f.typ, map[reflect.Type]bool{})
	switch f.typ.Kind() {
	case reflect.Pointer:
		d.nilNull = true
	case reflect.Slice, reflect.Map:
		d.nilNull = !hasMarshaler(f.typ)
	}
	return d
}

// embedDiff compiles the diff of fields, the JSON fields of struct t that
// are promoted through the embedded pointer hop steps of index lead to.
func embedDiff(t reflect.Type, fields []jsonField, hop int, via string, walking map[reflect.Type]bool) diffField {
	index := fields[0].index[:hop]
	offset, ptr := offsetOf(t, index)
	names := via + goNames(t, index)
	inner := make([]jsonField, len(fields))
	for i, f := range fields {
		f.index = f.index[hop:]
		inner[i] = f
	}
	return diffField{
		name: "," + names, key: markerKey(names), offset: offset, typ: ptr, embed: true,
		sub: buildMembers(ptr.Elem(), inner, names+".", walking),
	}
}

// offsetOf returns the offset from struct type t of the field at index,
// reached through structs held by value, and its type.
func offsetOf(t reflect.Type, index []int) (uintptr, reflect.Type) {
	var offset uintptr
	for _, i := range index {
		sf := t.Field(i)
		offset += sf.Offset
		t = sf.Type
	}
	return offset, t
}

// diff writes, as one JSON object, the fields of the struct at a that
// differ from those of the struct at b; nothing, and false, when none does.
func (w *sparseWriter) diff(a, b unsafe.Pointer, fields []diffField) (bool, error) {
	return w.object(a, b, fields, false)
}

// object is diff, with zero as members takes it.
func (w *sparseWriter) object(a, b unsafe.Pointer, fields []diffField, zero bool) (bool, error) {
	start := w.buf.Len()
	w.buf.WriteByte('{')
	wrote, err := w.members(a, b, fields, false, zero)
	if err != nil {
		return false, err
	}
	if !wrote {
		w.buf.Truncate(start)
		return false, nil
	}
	w.buf.WriteByte('}')
	return true, nil
}

// members writes the members of the fields of the struct at a that differ
// from those of the struct at b, into an object that already holds members
// when wrote says so, and reports whether the object holds any now. zero
// says the zero-ness of the struct holding them shows in JSON and differs
// (zeroshown.go): a leaf differs where Go's zero-ness does, too.
func (w *sparseWriter) members(a, b unsafe.Pointer, fields []diffField, wrote, zero bool) (bool, error) {
	for i := range fields {
		f := &fields[i]
		fa, fb := unsafe.Add(a, f.offset), unsafe.Add(b, f.offset)
		if f.embed {
			var err error
			if wrote, err = w.embedded(*(*unsafe.Pointer)(fa), *(*unsafe.Pointer)(fb), f, wrote, zero); err != nil {
				return false, err
			}
			continue
		}
		mark := w.buf.Len()
		if wrote {
			w.buf.WriteByte(',')
		}
		w.buf.Write(f.key)
		if f.sub != nil {
			sub, err := w.walked(fa, fb, f, zero)
			if err != nil {
				return false, err
			}
			if !sub {
				w.buf.Truncate(mark)
				continue
			}
		} else {
			same := f.eq(fa, fb) && (!f.keepsZero || sameJSONAt(f.typ, fa, fb)) ||
				f.omitsZero && omittedZero(f.typ, fa) && omittedZero(f.typ, fb)
			if same && (!zero || isZeroAt(f.typ, fa) == isZeroAt(f.typ, fb)) ||
				f.hidesEmbed && sameStored(f.typ, fa, fb) {
				w.buf.Truncate(mark)
				continue
			}
			if err := w.leaf(fa, f); err != nil {
				return false, fmt.Errorf("field %s: %w", f.name, err)
			}
		}
		wrote = true
	}
	return wrote, nil
}

// walked writes, after its key, the value of f, a struct the stash walks, at
// a where it differs from b's, and reports whether it wrote one: its members
// that differ, or null where the struct is zero at a alone and JSON shows
// that it is (zeroshown.go), which restores the zero value.
func (w *sparseWriter) walked(a, b unsafe.Pointer, f *diffField, zero bool) (bool, error) {
	if f.zeroShown {
		za, zb := isZeroAt(f.typ, a), isZeroAt(f.typ, b)
		if za && !zb {
			w.buf.WriteString("null")
			return true, nil
		}
		zero = zero || za != zb
	}
	return w.object(a, b, f.sub, zero)
}

// embedded writes the members of the fields f promotes through the embedded
// pointers a and b (see members): those that differ when both point at a
// struct, and when only one does, its marker and, for a, the members of
// a's fields that are not zero; nothing when the one struct shows nothing in
// JSON as stored, which reads it back as nil (a marker there would be an
// annotation the source, read back, does not have: apigen seeds 24, 25),
// unless zero says an omitzero struct around it is zero on one side only:
// then the pointer may be what makes it non-zero, which JSON does show
// (apigen seed 681510097).
func (w *sparseWriter) embedded(a, b unsafe.Pointer, f *diffField, wrote, zero bool) (bool, error) {
	switch {
	case a != nil && b != nil:
		return w.members(a, b, f.sub, wrote, zero)
	case a == nil && b == nil:
		return wrote, nil
	case !zero && (showsNothing(f.typ.Elem(), a) || showsNothing(f.typ.Elem(), b)):
		return wrote, nil
	}
	if a != nil {
		// Rare (a conversion that loses a whole embedded struct): the zero
		// struct to compare with is allocated each time. A member written
		// says the pointer is not nil, as restoring it allocates the
		// pointer; the marker says so where none is (a struct field JSON
		// always writes, at its zero value).
		mark := w.buf.Len()
		more, err := w.members(a, reflect.New(f.typ.Elem()).UnsafePointer(), f.sub, wrote, zero)
		if err != nil || w.buf.Len() > mark {
			return more, err
		}
	}
	if wrote {
		w.buf.WriteByte(',')
	}
	w.buf.Write(f.key)
	if a == nil {
		w.buf.WriteString("null")
	} else {
		w.buf.WriteString("{}")
	}
	return true, nil
}

// leaf writes the value of f at p as encoding/json writes it in its struct.
func (w *sparseWriter) leaf(p unsafe.Pointer, f *diffField) error {
	if f.nilNull && *(*unsafe.Pointer)(p) == nil { // a pointer's, map's or slice's first word
		w.buf.WriteString("null")
		return nil
	}
	if f.keepsZero && !f.quoted {
		return writeKeepingZero(&w.buf, reflect.NewAt(f.typ, p).Elem())
	}
	if f.enc != nil && !f.quoted {
		if b, ok := f.enc(w.buf.AvailableBuffer(), p); ok {
			w.buf.Write(b)
			return nil
		}
	}
	v := reflect.NewAt(f.typ, p).Interface()
	if f.quoted { // a nil pointer is null above, quoted or not
		raw, err := json.Marshal(v)
		if err != nil {
			return err
		}
		s, _ := json.Marshal(string(raw))
		w.buf.Write(s)
		return nil
	}
	if err := w.enc.Encode(v); err != nil {
		return err
	}
	w.buf.Truncate(w.buf.Len() - 1) // Encode ends the value with a newline
	return nil
}
