package typedjson

import (
	"encoding/json"
	"slices"
	"strconv"
	"time"
	"unicode/utf8"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/crdforge/crdforge/webhook/internal/codec"
	"github.com/crdforge/crdforge/webhook/internal/jsonscan"
)

// The encoders below append values as the reflection codec (package codec:
// encoding/json without HTML escaping) writes them. A generated encoder
// that gets an error from one returns it, and the webhook encodes the whole
// object again with the reflection codec.

const hex = "0123456789abcdef"

// replacement is what encoding/json writes for each byte of invalid UTF-8
// in a string: the escape \ufffd up to Go 1.26, the character U+FFFD itself
// from Go 1.27 on. It is asked of the encoding/json this program is built
// with, so that AppendString writes what the reflection codec writes.
var replacement = func() string {
	b, err := json.Marshal("\xff")
	if err != nil || len(b) < 2 {
		return `\ufffd`
	}
	return string(b[1 : len(b)-1])
}()

// AppendString appends s quoted as encoding/json quotes it without HTML
// escaping: `"` and `\` escaped, control characters as \b, \f, \n, \r, \t
// or \u00XX, U+2028 and U+2029 as \u2028 and \u2029 (for JavaScript), and
// each byte of invalid UTF-8 as encoding/json writes it (replacement).
func AppendString[T ~string](b []byte, s T) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(string(s[i:]))
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, replacement...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hex[r&0xf])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// AppendBool appends true or false.
func AppendBool[T ~bool](b []byte, v T) []byte { return strconv.AppendBool(b, bool(v)) }

// AppendInt appends an integer.
func AppendInt[T ~int | ~int8 | ~int16 | ~int32 | ~int64](b []byte, v T) []byte {
	return strconv.AppendInt(b, int64(v), 10)
}

// AppendUint appends an unsigned integer.
func AppendUint[T ~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64 | ~uintptr](b []byte, v T) []byte {
	return strconv.AppendUint(b, uint64(v), 10)
}

// AppendTime appends a metav1.Time as its MarshalJSON method writes it:
// null for the zero time, else RFC 3339 in UTC, quoted.
func AppendTime(b []byte, t *metav1.Time) []byte {
	if t.IsZero() {
		return append(b, "null"...)
	}
	b = append(b, '"')
	b = t.UTC().AppendFormat(b, time.RFC3339)
	return append(b, '"')
}

// Marshaler is a type's own MarshalJSON method.
type Marshaler interface{ MarshalJSON() ([]byte, error) }

// AppendMarshal appends what v's MarshalJSON method writes, when it is
// compact JSON of printable ASCII without escapes (a quantity, an
// int-or-string, most raw extensions), which the reflection codec would
// write as it is; anything else it leaves to the reflection codec.
func AppendMarshal[T Marshaler](b []byte, v T) ([]byte, error) {
	out, err := v.MarshalJSON()
	if err != nil {
		return b, err
	}
	for _, c := range out {
		if c <= ' ' || c >= 0x7f || c == '\\' {
			return codec.MarshalAppend(b, v)
		}
	}
	if !jsonscan.Valid(out) {
		return codec.MarshalAppend(b, v) // for the reflection codec's error
	}
	return append(b, out...), nil
}

// AppendReflect appends v encoded by the reflection codec: for what a
// generated encoder does not specialise. v is a pointer to a field or
// element, or, for a map's value, the value itself (which encoding/json
// cannot address).
func AppendReflect(b []byte, v any) ([]byte, error) {
	return codec.MarshalAppend(b, v)
}

// AppendSlice appends s as an array, each element with elem; nil is null.
func AppendSlice[S ~[]E, E any](b []byte, s S, elem func([]byte, *E) ([]byte, error)) ([]byte, error) {
	if s == nil {
		return append(b, "null"...), nil
	}
	b = append(b, '[')
	for i := range s {
		if i > 0 {
			b = append(b, ',')
		}
		var err error
		if b, err = elem(b, &s[i]); err != nil {
			return b, err
		}
	}
	return append(b, ']'), nil
}

// AppendMap appends m as an object, its keys sorted, each value with elem
// (given a copy, as encoding/json cannot address a map's values); nil is
// null.
func AppendMap[M ~map[K]V, K ~string, V any](b []byte, m M, elem func([]byte, *V) ([]byte, error)) ([]byte, error) {
	if m == nil {
		return append(b, "null"...), nil
	}
	var small [8]K
	keys := small[:0]
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	b = append(b, '{')
	var v *V // one copy, value after value: elem's argument escapes
	for i, k := range keys {
		if i > 0 {
			b = append(b, ',')
		}
		b = AppendString(b, k)
		b = append(b, ':')
		if v == nil {
			v = new(V)
		}
		*v = m[k]
		var err error
		if b, err = elem(b, v); err != nil {
			return b, err
		}
	}
	return append(b, '}'), nil
}

// AppendStringMap is AppendMap for a map of strings to strings, without a
// call through a function value, and a value allocated, for each map.
func AppendStringMap[M ~map[K]V, K ~string, V ~string](b []byte, m M) []byte {
	if m == nil {
		return append(b, "null"...)
	}
	var small [8]K
	keys := small[:0]
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	b = append(b, '{')
	for i, k := range keys {
		if i > 0 {
			b = append(b, ',')
		}
		b = AppendString(b, k)
		b = append(b, ':')
		b = AppendString(b, m[k])
	}
	return append(b, '}')
}

// IsZero reports whether v is its type's zero value, for omitzero.
func IsZero[T comparable](v T) bool {
	var zero T
	return v == zero
}
