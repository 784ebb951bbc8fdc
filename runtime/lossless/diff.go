package lossless

import (
	"encoding/json"
	"fmt"
	"reflect"
	"unsafe"
)

// diffField is a field of a struct as the sparse stash's diff reads it,
// worked out once per type: where it is (the sum of the offsets of the
// embedded structs on its way, which the stash only walks when they are
// held by value), its JSON key, and how its two values are compared. The
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
	eq  eqFunc
	// enc writes the leaf without encoding/json when it can (encoderOf).
	enc leafEncoder
	// nilNull says a nil value of the leaf is JSON null whatever it holds:
	// a pointer, or a slice or map of a type with no JSON method of its
	// own, which encoding/json would be asked for the same four bytes.
	nilNull bool
}

// buildDiff compiles the diff of fields, the JSON fields of struct t (of
// its data only, for a root type), none reached through a pointer.
func buildDiff(t reflect.Type, fields []jsonField) []diffField {
	out := make([]diffField, 0, len(fields))
	for _, f := range fields {
		d := diffField{name: f.name, key: f.key, typ: f.typ, quoted: f.quoted}
		at := t
		for _, i := range f.index {
			sf := at.Field(i)
			d.offset += sf.Offset
			at = sf.Type
		}
		switch {
		case f.walk:
			d.sub = buildDiff(f.typ, fieldsOf(f.typ).fields)
		default:
			// Equal as JSON writes them: nil apart from empty (see
			// emptyvalues.go), for the stash to keep a {} or [].
			d.eq, d.enc = jsonEq(eqFor(f.typ), fieldNilFor(f.typ, f.omitEmpty)), encoderOf(f.typ)
			switch f.typ.Kind() {
			case reflect.Pointer:
				d.nilNull = true
			case reflect.Slice, reflect.Map:
				d.nilNull = !hasMarshaler(f.typ)
			}
		}
		out = append(out, d)
	}
	return out
}

// diff writes, as one JSON object, the fields of the struct at a that
// differ from those of the struct at b; nothing, and false, when none does.
func (w *sparseWriter) diff(a, b unsafe.Pointer, fields []diffField) (bool, error) {
	start := w.buf.Len()
	w.buf.WriteByte('{')
	wrote := false
	for i := range fields {
		f := &fields[i]
		fa, fb := unsafe.Add(a, f.offset), unsafe.Add(b, f.offset)
		mark := w.buf.Len()
		if wrote {
			w.buf.WriteByte(',')
		}
		w.buf.Write(f.key)
		if f.sub != nil {
			sub, err := w.diff(fa, fb, f.sub)
			if err != nil {
				return false, err
			}
			if !sub {
				w.buf.Truncate(mark)
				continue
			}
		} else {
			if f.eq(fa, fb) {
				w.buf.Truncate(mark)
				continue
			}
			if err := w.leaf(fa, f); err != nil {
				return false, fmt.Errorf("field %s: %w", f.name, err)
			}
		}
		wrote = true
	}
	if !wrote {
		w.buf.Truncate(start)
		return false, nil
	}
	w.buf.WriteByte('}')
	return true, nil
}

// leaf writes the value of f at p as encoding/json writes it in its struct.
func (w *sparseWriter) leaf(p unsafe.Pointer, f *diffField) error {
	if f.nilNull && *(*unsafe.Pointer)(p) == nil { // a pointer's, map's or slice's first word
		w.buf.WriteString("null")
		return nil
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
