package lossless

import (
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unsafe"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// leafEncoder appends the value at p as a json.Encoder writes it (HTML
// characters escaped, as by default), or reports false for a value it does
// not write, which encoding/json then writes. The sparse stash writes every
// lost field as a leaf; encoding/json's reflection was most of what a
// stash of a small struct cost.
type leafEncoder func(b []byte, p unsafe.Pointer) ([]byte, bool)

// leafEncoders caches encoderOf; a nil leafEncoder is a type left to
// encoding/json.
var leafEncoders sync.Map // reflect.Type → leafEncoder

// encoderOf returns the encoder of values of t, or nil for a type whose
// encoding it does not repeat: floats, interfaces, arrays, byte slices,
// maps without string keys, the ",string" and "omitzero" options, fields
// reached through embedded pointers, and every type with a JSON or text
// method of its own but metav1.Time.
func encoderOf(t reflect.Type) leafEncoder {
	if e, ok := leafEncoders.Load(t); ok {
		return e.(leafEncoder)
	}
	e := buildEncoder(t, map[reflect.Type]*leafEncoder{})
	actual, _ := leafEncoders.LoadOrStore(t, e)
	return actual.(leafEncoder)
}

// buildEncoder builds t's encoder; building holds those under way, which a
// recursive type refers to.
func buildEncoder(t reflect.Type, building map[reflect.Type]*leafEncoder) leafEncoder {
	if cell, ok := building[t]; ok {
		return func(b []byte, p unsafe.Pointer) ([]byte, bool) {
			if *cell == nil {
				return b, false
			}
			return (*cell)(b, p)
		}
	}
	cell := new(leafEncoder)
	building[t] = cell
	*cell = buildEncoderOf(t, building)
	delete(building, t)
	return *cell
}

func buildEncoderOf(t reflect.Type, building map[reflect.Type]*leafEncoder) leafEncoder {
	switch {
	case t == timeType:
		return appendTime
	case t.Kind() == reflect.Pointer:
		// nil is null, else the element's encoding: that of its
		// marshaler too, which the element's encoder declines.
		return pointerEncoder(t, building)
	case hasMarshaler(t):
		return nil
	}
	switch t.Kind() {
	case reflect.Bool:
		return func(b []byte, p unsafe.Pointer) ([]byte, bool) { return strconv.AppendBool(b, *(*bool)(p)), true }
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return appendInteger(t)
	case reflect.String:
		return func(b []byte, p unsafe.Pointer) ([]byte, bool) { return appendPlainString(b, *(*string)(p)) }
	case reflect.Struct:
		return structEncoder(t, building)
	case reflect.Slice:
		return sliceEncoder(t, building)
	case reflect.Map:
		return mapEncoder(t, building)
	}
	return nil
}

// appendTime writes a metav1.Time as its MarshalJSON method: null for the
// zero time, else RFC 3339 in UTC, quoted.
func appendTime(b []byte, p unsafe.Pointer) ([]byte, bool) {
	t := (*metav1.Time)(p)
	if t.IsZero() {
		return append(b, "null"...), true
	}
	b = append(b, '"')
	b = t.UTC().AppendFormat(b, time.RFC3339)
	return append(b, '"'), true
}

// appendInteger returns the encoder of an integer type, read by its size
// and signedness.
func appendInteger(t reflect.Type) leafEncoder {
	signed := t.Kind() >= reflect.Int && t.Kind() <= reflect.Int64
	var load func(unsafe.Pointer) int64
	switch t.Size() {
	case 1:
		load = func(p unsafe.Pointer) int64 { return int64(*(*int8)(p)) }
	case 2:
		load = func(p unsafe.Pointer) int64 { return int64(*(*int16)(p)) }
	case 4:
		load = func(p unsafe.Pointer) int64 { return int64(*(*int32)(p)) }
	default:
		load = func(p unsafe.Pointer) int64 { return *(*int64)(p) }
	}
	if signed {
		return func(b []byte, p unsafe.Pointer) ([]byte, bool) { return strconv.AppendInt(b, load(p), 10), true }
	}
	// The same bits, unsigned: the mask keeps those of the type's size.
	mask := uint64(1)<<(8*t.Size()) - 1
	if t.Size() == 8 {
		mask = ^uint64(0)
	}
	return func(b []byte, p unsafe.Pointer) ([]byte, bool) {
		return strconv.AppendUint(b, uint64(load(p))&mask, 10), true
	}
}

// appendPlainString quotes s when it is printable ASCII that encoding/json
// writes as it is (no quote, backslash or HTML character); anything else,
// whose escapes have changed between Go releases, is left to encoding/json.
func appendPlainString(b []byte, s string) ([]byte, bool) {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c < 0x20 || c > 0x7e, c == '"', c == '\\', c == '<', c == '>', c == '&':
			return b, false
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"'), true
}

func pointerEncoder(t reflect.Type, building map[reflect.Type]*leafEncoder) leafEncoder {
	elem := buildEncoder(t.Elem(), building)
	if elem == nil {
		return nil
	}
	return func(b []byte, p unsafe.Pointer) ([]byte, bool) {
		if q := *(*unsafe.Pointer)(p); q != nil {
			return elem(b, q)
		}
		return append(b, "null"...), true
	}
}

// encodedField is a struct field as a leafEncoder writes it.
type encodedField struct {
	key    []byte
	offset uintptr
	enc    leafEncoder
	// empty, for a field with "omitempty", says whether its value is
	// empty as encoding/json has it: false, 0, "", nil, or no elements.
	empty func(unsafe.Pointer) bool
}

func structEncoder(t reflect.Type, building map[reflect.Type]*leafEncoder) leafEncoder {
	var fields []encodedField
	for _, f := range fieldsOf(t).fields {
		if f.viaPointer || f.quoted || f.omitZero {
			return nil
		}
		ef := encodedField{key: f.key, enc: buildEncoder(f.typ, building)}
		ef.offset, _ = offsetOf(t, f.index)
		if ef.enc == nil {
			return nil
		}
		if f.omitEmpty {
			if ef.empty = emptiness(f.typ); ef.empty == nil {
				return nil
			}
		}
		fields = append(fields, ef)
	}
	return func(b []byte, p unsafe.Pointer) ([]byte, bool) {
		b = append(b, '{')
		first := true
		for i := range fields {
			f := &fields[i]
			fp := unsafe.Add(p, f.offset)
			if f.empty != nil && f.empty(fp) {
				continue
			}
			if !first {
				b = append(b, ',')
			}
			first = false
			b = append(b, f.key...)
			var ok bool
			if b, ok = f.enc(b, fp); !ok {
				return b, false
			}
		}
		return append(b, '}'), true
	}
}

// emptiness returns what "omitempty" asks of values of t, or nil for a
// type it does not say (those encoderOf leaves to encoding/json anyway).
func emptiness(t reflect.Type) func(unsafe.Pointer) bool {
	switch t.Kind() {
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.String:
		return func(p unsafe.Pointer) bool { return reflect.NewAt(t, p).Elem().IsZero() }
	case reflect.Map:
		return func(p unsafe.Pointer) bool { return reflect.NewAt(t, p).Elem().Len() == 0 }
	case reflect.Pointer:
		return func(p unsafe.Pointer) bool { return *(*unsafe.Pointer)(p) == nil }
	case reflect.Slice:
		return func(p unsafe.Pointer) bool { return (*sliceHeader)(p).len == 0 }
	case reflect.Struct:
		return func(unsafe.Pointer) bool { return false } // never empty
	}
	return nil
}

func sliceEncoder(t reflect.Type, building map[reflect.Type]*leafEncoder) leafEncoder {
	if t.Elem().Kind() == reflect.Uint8 {
		return nil // base64
	}
	elem := buildEncoder(t.Elem(), building)
	if elem == nil {
		return nil
	}
	size := t.Elem().Size()
	return func(b []byte, p unsafe.Pointer) ([]byte, bool) {
		s := (*sliceHeader)(p)
		if s.data == nil {
			return append(b, "null"...), true
		}
		b = append(b, '[')
		for i := 0; i < s.len; i++ {
			if i > 0 {
				b = append(b, ',')
			}
			var ok bool
			if b, ok = elem(b, unsafe.Add(s.data, uintptr(i)*size)); !ok {
				return b, false
			}
		}
		return append(b, ']'), true
	}
}

func mapEncoder(t reflect.Type, building map[reflect.Type]*leafEncoder) leafEncoder {
	if t.Key().Kind() != reflect.String || hasMarshaler(t.Key()) {
		return nil
	}
	elem := buildEncoder(t.Elem(), building)
	if elem == nil {
		return nil
	}
	values := reflect.SliceOf(t.Elem())
	return func(b []byte, p unsafe.Pointer) ([]byte, bool) {
		m := reflect.NewAt(t, p).Elem()
		if m.IsNil() {
			return append(b, "null"...), true
		}
		// The entries, copied out of the map once each and written in
		// the order of their keys, as encoding/json writes them.
		n := m.Len()
		keys, order := make([]string, 0, n), make([]int, n)
		vals := reflect.MakeSlice(values, n, n)
		key := reflect.New(t.Key()).Elem()
		var it reflect.MapIter
		it.Reset(m)
		for i := 0; it.Next(); i++ {
			key.SetIterKey(&it)
			keys = append(keys, key.String())
			vals.Index(i).SetIterValue(&it)
			order[i] = i
		}
		slices.SortFunc(order, func(i, j int) int { return strings.Compare(keys[i], keys[j]) })
		b = append(b, '{')
		for n, i := range order {
			if n > 0 {
				b = append(b, ',')
			}
			var ok bool
			if b, ok = appendPlainString(b, keys[i]); !ok {
				return b, false
			}
			b = append(b, ':')
			if b, ok = elem(b, vals.Index(i).Addr().UnsafePointer()); !ok {
				return b, false
			}
		}
		return append(b, '}'), true
	}
}
