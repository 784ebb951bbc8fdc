package lossless

import (
	"bytes"
	"encoding"
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"
	"unsafe"
)

// Values stored whole that hold zero structs JSON shows.
//
// The sparse stash stores a pointer, a list or a map whole, as encoding/json
// writes it, and reads it back with encoding/json. For a value that holds
// an omitzero struct JSON shows the zero-ness of (zeroshown.go), that loses
// what made the struct non-zero where JSON writes nothing for it (an empty
// omitempty list or map): the struct a client wrote as "{}" reads back as
// zero and comes back absent (apigen seed 290104233, a spoke-only map in
// such a struct behind a pointer). So such a leaf is compared as JSON
// writes it (Go's semantic equality takes an empty map for a nil one), and
// written with every member that is not Go's zero value, "[]" and "{}"
// included, which encoding/json reads back as the same Go value.

// sameJSONAt reports whether the values of type t at a and b are written
// alike by encoding/json.
func sameJSONAt(t reflect.Type, a, b unsafe.Pointer) bool {
	ja, errA := json.Marshal(reflect.NewAt(t, a).Interface())
	jb, errB := json.Marshal(reflect.NewAt(t, b).Interface())
	return errA == nil && errB == nil && bytes.Equal(ja, jb)
}

// writeKeepingZero writes v as JSON that encoding/json reads back as v: as
// encoding/json writes it, but that a struct's members are written
// wherever they are not Go's zero value, whatever their omitempty says.
func writeKeepingZero(buf *bytes.Buffer, v reflect.Value) error {
	t := v.Type()
	if hasMarshaler(t) {
		return writeJSON(buf, v)
	}
	switch t.Kind() {
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			buf.WriteString("null")
			return nil
		}
		return writeKeepingZero(buf, v.Elem())
	case reflect.Slice:
		if v.IsNil() {
			buf.WriteString("null")
			return nil
		}
		if t.Elem().Kind() == reflect.Uint8 { // base64, as encoding/json
			return writeJSON(buf, v)
		}
		return writeElems(buf, v)
	case reflect.Array:
		return writeElems(buf, v)
	case reflect.Map:
		return writeMapKeepingZero(buf, v)
	case reflect.Struct:
		return writeStructKeepingZero(buf, v)
	}
	return writeJSON(buf, v)
}

func writeJSON(buf *bytes.Buffer, v reflect.Value) error {
	b, err := json.Marshal(v.Interface())
	buf.Write(b)
	return err
}

func writeElems(buf *bytes.Buffer, v reflect.Value) error {
	buf.WriteByte('[')
	for i := 0; i < v.Len(); i++ {
		if i > 0 {
			buf.WriteByte(',')
		}
		if err := writeKeepingZero(buf, v.Index(i)); err != nil {
			return err
		}
	}
	buf.WriteByte(']')
	return nil
}

// writeMapKeepingZero writes a map with its keys as encoding/json writes
// them (a string, a TextMarshaler's text, an integer's digits), sorted.
func writeMapKeepingZero(buf *bytes.Buffer, v reflect.Value) error {
	if v.IsNil() {
		buf.WriteString("null")
		return nil
	}
	members := make(map[string]json.RawMessage, v.Len())
	for it := v.MapRange(); it.Next(); {
		key, err := mapKey(it.Key())
		if err != nil {
			return err
		}
		var elem bytes.Buffer
		if err := writeKeepingZero(&elem, it.Value()); err != nil {
			return err
		}
		members[key] = elem.Bytes()
	}
	return writeJSON(buf, reflect.ValueOf(members))
}

func mapKey(k reflect.Value) (string, error) {
	if k.Kind() == reflect.String {
		return k.String(), nil
	}
	if tm, ok := k.Interface().(encoding.TextMarshaler); ok {
		b, err := tm.MarshalText()
		return string(b), err
	}
	switch k.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return strconv.FormatInt(k.Int(), 10), nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return strconv.FormatUint(k.Uint(), 10), nil
	}
	return "", fmt.Errorf("map key of type %s", k.Type())
}

// writeStructKeepingZero writes the members of a struct that are not Go's
// zero value: reading the object into a zero struct gives it back.
func writeStructKeepingZero(buf *bytes.Buffer, v reflect.Value) error {
	buf.WriteByte('{')
	wrote := false
	for _, f := range fieldsOf(v.Type()).fields {
		fv, err := v.FieldByIndexErr(f.index)
		if err != nil || fv.IsZero() {
			continue // behind a nil embedded pointer, or zero
		}
		if wrote {
			buf.WriteByte(',')
		}
		wrote = true
		buf.Write(f.key)
		if f.quoted {
			if err := writeQuoted(buf, fv); err != nil {
				return err
			}
			continue
		}
		if err := writeKeepingZero(buf, fv); err != nil {
			return err
		}
	}
	buf.WriteByte('}')
	return nil
}

// writeQuoted writes a ",string" field as encoding/json does: its JSON as
// a JSON string.
func writeQuoted(buf *bytes.Buffer, v reflect.Value) error {
	raw, err := json.Marshal(v.Interface())
	if err != nil {
		return err
	}
	return writeJSON(buf, reflect.ValueOf(string(raw)))
}
