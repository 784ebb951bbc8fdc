// Package typedjson is what the JSON codecs crdforge generates for each
// version's types call: a decoder over JSON tokens with the API
// server's decoding semantics (those of package codec, sigs.k8s.io/json's
// UnmarshalCaseSensitivePreserveInts) for the leaves a generated decoder
// reads, and the reflection codec for every value it does not specialise.
//
// A generated decoder is strict where the API server's codec is lenient or
// reports an error: on a type mismatch, a duplicate name or any input it is
// not sure of, it returns an error, and the webhook decodes the whole object
// again with the reflection codec, which gives the API server's result or
// its error. It never gives a result the reflection codec would not.
package typedjson

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"
	"unsafe"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/crdforge/crdforge/webhook/internal/codec"
	"github.com/crdforge/crdforge/webhook/internal/jsonscan"
)

// ErrFallback is what a generated decoder returns on input it leaves to
// the reflection codec: a name given twice in one object (encoding/json
// merges the second value into the first), or a JSON kind the field's type
// does not take.
var ErrFallback = errors.New("typedjson: input left to the reflection codec")

// Decoder reads one JSON value for a generated decoder.
type Decoder struct {
	dec jsonscan.Tokens
	// name is the unquoted name of the last member read, when it had to be
	// unquoted.
	name []byte
	// strings are short strings decoded before, by this decoder: the same
	// values (kinds, namespaces, label keys and values, enums) come back
	// object after object, and sharing them spares an allocation each.
	strings [internSlots]string
	// passed are where the members Pass skipped are, plus one.
	passed Marks
	// quantities are quantities parsed before, by this decoder, as
	// strings are kept: "250m" and "1Gi" come back object after object.
	quantities [quantitySlots]parsedQuantity
}

// internSlots is the number of strings a Decoder keeps; internMax the
// length of the longest.
const (
	internSlots = 512
	internMax   = 32
)

// intern returns b as a string, one kept from before when there is one.
func (d *Decoder) intern(b []byte) string {
	if len(b) > internMax {
		return string(b)
	}
	// Two slots per hash, the last string used first: two values of
	// one object that share a hash do not take each other's place.
	pair := (*[2]string)(d.strings[pairAt(b, internSlots):])
	switch string(b) {
	case pair[0]:
		return pair[0]
	case pair[1]:
		pair[0], pair[1] = pair[1], pair[0]
		return pair[0]
	}
	pair[1], pair[0] = pair[0], string(b)
	return pair[0]
}

// pairAt is the index of the first of the two slots, of slots in all,
// where b is kept.
func pairAt(b []byte, slots int) int { return 2 * int(internHash(b)%uint64(slots/2)) }

// internHash hashes b, at most internMax bytes, from three words of it
// (its first, middle and last eight bytes, which overlap in a short b)
// rather than byte by byte: a collision costs only an allocation.
func internHash(b []byte) uint64 {
	var h uint64
	if n := len(b); n >= 8 {
		h = binary.LittleEndian.Uint64(b)
		h = (h ^ binary.LittleEndian.Uint64(b[n/2-4:])) * 0x9e3779b97f4a7c15
		h = (h ^ binary.LittleEndian.Uint64(b[n-8:])) * 0x9e3779b97f4a7c15
	} else {
		for _, c := range b {
			h = h<<8 | uint64(c)
		}
		h *= 0x9e3779b97f4a7c15
	}
	h ^= uint64(len(b))
	return h ^ h>>29
}

var decoders = sync.Pool{New: func() any { return new(Decoder) }}

// Tape is the tokens of one object of a ConversionReview, as the webhook's
// read of the review found them, so that Decode need not walk the object's
// bytes again. Only the webhook makes one.
type Tape = jsonscan.Tape

// Decode decodes data into v, a new (zero) value, with decode, a generated
// decoder of v's type; from tape when it is not nil, which must be the
// tape of the object data is. On an error v may hold part of the input.
func Decode[T any](data []byte, tape *Tape, v T, decode func(*Decoder, T) error) error {
	d := decoders.Get().(*Decoder)
	defer decoders.Put(d)
	return decodeWith(d, data, tape, v, decode)
}

// decodeWith is Decode with the decoder d.
func decodeWith[T any](d *Decoder, data []byte, tape *Tape, v T, decode func(*Decoder, T) error) error {
	if tape != nil {
		d.dec.ResetTape(data, tape)
	} else {
		d.dec.Reset(data)
	}
	if err := decode(d, v); err != nil {
		return err
	}
	if !d.dec.AtEnd() {
		return ErrFallback // anything after the value
	}
	return nil
}

// Null reads a null when the next value is one.
func (d *Decoder) Null() bool {
	if d.dec.Peek() != jsonscan.KindNull {
		return false
	}
	_, err := d.dec.Value()
	return err == nil
}

// Begin reads the start of an object ('{') or array ('['), which must come
// next.
func (d *Decoder) Begin(kind byte) error {
	if d.dec.Peek() != kind {
		return ErrFallback
	}
	return d.dec.Begin(kind)
}

// More reports whether the object or array goes on.
func (d *Decoder) More() bool {
	k := d.dec.Peek()
	return k != '}' && k != ']' && k != 0
}

// End reads the end of the object or array.
func (d *Decoder) End() error { return d.dec.End() }

// Name reads a member's name, unquoted; it is valid until the next call.
func (d *Decoder) Name() ([]byte, error) {
	raw, err := d.dec.Name()
	if err != nil {
		return nil, err
	}
	if d.dec.Plain() {
		return raw[1 : len(raw)-1], nil
	}
	d.name = unquote(d.name[:0], raw)
	return d.name, nil
}

// Skip reads a value no field takes.
func (d *Decoder) Skip() error {
	_, err := d.dec.Value()
	return err
}

// unquote appends the value of raw, a valid JSON string literal that is not
// plain (see jsonscan.Tokens.Plain), to dst, as encoding/json decodes it:
// escapes resolved, invalid UTF-8 and lone surrogates replaced by U+FFFD.
// It resolves the escapes of valid UTF-8 text itself (kubectl's
// last-applied-configuration annotation is JSON quoted in JSON, a quote
// escaped every few bytes); anything else, a surrogate escaped or a byte
// that is not UTF-8, goes to encoding/json, which defines the value.
func unquote(dst, raw []byte) []byte {
	mark := len(dst)
	s := raw[1 : len(raw)-1]
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '\\':
			if s[i+1] != 'u' {
				dst = append(dst, unescaped[s[i+1]])
				i += 2
				continue
			}
			r, err := strconv.ParseUint(string(s[i+2:i+6]), 16, 32)
			if err != nil || r >= 0xd800 && r < 0xe000 {
				return jsonUnquote(dst[:mark], raw)
			}
			dst = utf8.AppendRune(dst, rune(r))
			i += 6
		case c < utf8.RuneSelf:
			j := i + 1
			for j < len(s) && s[j] != '\\' && s[j] < utf8.RuneSelf {
				j++
			}
			dst = append(dst, s[i:j]...)
			i = j
		default:
			r, size := utf8.DecodeRune(s[i:])
			if r == utf8.RuneError && size == 1 {
				return jsonUnquote(dst[:mark], raw)
			}
			dst = append(dst, s[i:i+size]...)
			i += size
		}
	}
	return dst
}

// unescaped is what each one-character escape after a backslash stands for.
var unescaped = [256]byte{'"': '"', '\\': '\\', '/': '/', 'b': '\b', 'f': '\f', 'n': '\n', 'r': '\r', 't': '\t'}

// jsonUnquote is unquote by encoding/json.
func jsonUnquote(dst, raw []byte) []byte {
	var s string
	_ = json.Unmarshal(raw, &s) // cannot fail: raw is a valid string literal
	return append(dst, s...)
}

// value reads the next value, which must be of kind.
func (d *Decoder) value(kind byte) ([]byte, error) {
	if d.dec.Peek() != kind {
		return nil, ErrFallback
	}
	return d.dec.Value()
}

// String decodes a string into v; null leaves it as it is.
func String[T ~string](d *Decoder, v *T) error {
	if d.Null() {
		return nil
	}
	raw, err := d.value(jsonscan.KindString)
	if err != nil {
		return err
	}
	if d.dec.Plain() {
		*v = T(d.intern(raw[1 : len(raw)-1]))
		return nil
	}
	d.name = unquote(d.name[:0], raw)
	*v = T(d.intern(d.name))
	return nil
}

// Bool decodes a boolean into v; null leaves it as it is.
func Bool[T ~bool](d *Decoder, v *T) error {
	if d.Null() {
		return nil
	}
	switch d.dec.Peek() {
	case jsonscan.KindTrue, jsonscan.KindFalse:
		raw, err := d.dec.Value()
		if err != nil {
			return err // "f0": the peek saw only its first byte
		}
		*v = T(raw[0] == 't')
		return nil
	}
	return ErrFallback
}

// number reads a number's literal as a string that lives only as long as
// the call that uses it.
func (d *Decoder) number() (string, error) {
	raw, err := d.value(jsonscan.KindNumber)
	if err != nil {
		return "", err
	}
	return unsafe.String(unsafe.SliceData(raw), len(raw)), nil
}

// Int decodes an integer of bits bits into v; null leaves it as it is. A
// fraction, an exponent or a value out of range is left to the reflection
// codec, which refuses it as encoding/json does.
func Int[T ~int | ~int8 | ~int16 | ~int32 | ~int64](d *Decoder, v *T, bits int) error {
	if d.Null() {
		return nil
	}
	s, err := d.number()
	if err != nil {
		return err
	}
	n, ok := shortInt(s)
	if !ok {
		if n, err = strconv.ParseInt(s, 10, bits); err != nil {
			return ErrFallback
		}
	} else if !fits(n, bits) {
		return ErrFallback // as ParseInt's range error
	}
	*v = T(n)
	return nil
}

// shortInt parses s when it is an integer of at most 18 digits, which an
// int64 holds whatever they are, without strconv.ParseInt's general case:
// the counts and generations of stored objects. It reports false for any
// other literal, which ParseInt then reads.
func shortInt(s string) (int64, bool) {
	digits := s
	if len(s) > 0 && s[0] == '-' {
		digits = s[1:]
	}
	if len(digits) == 0 || len(digits) > 18 {
		return 0, false
	}
	var n int64
	for i := 0; i < len(digits); i++ {
		c := digits[i] - '0'
		if c > 9 {
			return 0, false
		}
		n = n*10 + int64(c)
	}
	if len(digits) < len(s) {
		n = -n
	}
	return n, true
}

// fits reports whether n is in the range of a signed integer of bits bits,
// 0 standing for int's, as strconv.ParseInt's bitSize.
func fits(n int64, bits int) bool {
	if bits == 0 {
		bits = strconv.IntSize
	}
	if bits >= 64 {
		return true
	}
	limit := int64(1) << (bits - 1)
	return -limit <= n && n < limit
}

// Uint is Int for unsigned integers.
func Uint[T ~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64 | ~uintptr](d *Decoder, v *T, bits int) error {
	if d.Null() {
		return nil
	}
	s, err := d.number()
	if err != nil {
		return err
	}
	n, err := strconv.ParseUint(s, 10, bits)
	if err != nil {
		return ErrFallback
	}
	*v = T(n)
	return nil
}

// Float decodes a number of bits bits into v; null leaves it as it is.
func Float[T ~float32 | ~float64](d *Decoder, v *T, bits int) error {
	if d.Null() {
		return nil
	}
	s, err := d.number()
	if err != nil {
		return err
	}
	f, err := strconv.ParseFloat(s, bits)
	if err != nil {
		return ErrFallback
	}
	*v = T(f)
	return nil
}

// Unmarshaler is a type's own UnmarshalJSON method, which encoding/json
// calls with the value's bytes, null included.
type Unmarshaler interface{ UnmarshalJSON([]byte) error }

// Unmarshal decodes the next value with v's own UnmarshalJSON method.
func Unmarshal(d *Decoder, v Unmarshaler) error {
	raw, err := d.dec.Value()
	if err != nil {
		return err
	}
	return v.UnmarshalJSON(raw)
}

// Time decodes a metav1.Time as its UnmarshalJSON method does (null is
// the zero time, a string is parsed as RFC 3339 and kept in local time)
// without the method's allocations: it unquotes the string with
// encoding/json.Unmarshal.
func Time(d *Decoder, v *metav1.Time) error {
	if d.Null() {
		v.Time = time.Time{}
		return nil
	}
	raw, err := d.value(jsonscan.KindString)
	if err != nil {
		return err
	}
	var s string
	if d.dec.Plain() {
		s = unsafe.String(unsafe.SliceData(raw[1:]), len(raw)-2)
	} else {
		s = string(unquote(nil, raw))
	}
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		return err
	}
	v.Time = t.Local()
	return nil
}

// Reflect decodes the next value into v, a pointer to a field, element or
// map value, with the reflection codec: for what a generated decoder does
// not specialise (interface values, byte slices, arrays, maps whose keys are
// not strings, types with other methods of their own).
func Reflect(d *Decoder, v any) error {
	raw, err := d.dec.Value()
	if err != nil {
		return err
	}
	return codec.Unmarshal(raw, v)
}

// Slice decodes an array into v, null into nil, each element with elem.
func Slice[S ~[]E, E any](d *Decoder, v *S, elem func(*Decoder, *E) error) error {
	if d.Null() {
		*v = nil
		return nil
	}
	if err := d.Begin('['); err != nil {
		return err
	}
	if *v != nil {
		return ErrFallback // encoding/json would decode into the elements there
	}
	out := make(S, 0, d.dec.Elements())
	for d.More() {
		var zero E
		out = append(out, zero)
		if err := elem(d, &out[len(out)-1]); err != nil {
			return err
		}
	}
	*v = out
	return d.End()
}

// Map decodes an object into v, null into nil, each member's value with
// elem into a new value, the last of duplicate names winning, as
// encoding/json does. A map already there is added to.
func Map[M ~map[K]V, K ~string, V any](d *Decoder, v *M, elem func(*Decoder, *V) error) error {
	if d.Null() {
		*v = nil
		return nil
	}
	if err := d.Begin('{'); err != nil {
		return err
	}
	if *v == nil {
		*v = M{}
	}
	var e *V // one value decoded into, member after member: elem's argument escapes
	for d.More() {
		name, err := d.Name()
		if err != nil {
			return err
		}
		k := K(d.intern(name))
		if e == nil {
			e = new(V)
		} else {
			var zero V
			*e = zero
		}
		if err := elem(d, e); err != nil {
			return err
		}
		(*v)[k] = *e
	}
	return d.End()
}

// StringMap is Map for a map of strings to strings, the most common map in
// Kubernetes objects (labels, annotations, selectors): without a call
// through a function value, and a value allocated, for each map.
func StringMap[M ~map[K]V, K ~string, V ~string](d *Decoder, v *M) error {
	if d.Null() {
		*v = nil
		return nil
	}
	if err := d.Begin('{'); err != nil {
		return err
	}
	if *v == nil {
		*v = M{}
	}
	for d.More() {
		name, err := d.Name()
		if err != nil {
			return err
		}
		k := K(d.intern(name))
		var e V // null leaves it empty, as Map's zeroed value
		if err := String(d, &e); err != nil {
			return err
		}
		(*v)[k] = e
	}
	return d.End()
}

// MetadataStash decodes, of an object's metadata, only the annotations
// whose keys start with prefix, those that hold a conversion's stash, into
// v, and skips every other member and annotation: for a root object whose
// conversion copies its metadata and changes at most its stash
// (Codec.DecodeData). The webhook writes such an object's metadata back as
// it came in, its stash edited, and the API server keeps its own copy of
// every other metadata field in any case.
func MetadataStash(d *Decoder, v *metav1.ObjectMeta, prefix string) error {
	if d.Null() {
		return nil
	}
	if err := d.Begin('{'); err != nil {
		return err
	}
	annotations := false
	for d.More() {
		name, err := d.Name()
		if err != nil {
			return err
		}
		if string(name) != "annotations" {
			if err := d.Skip(); err != nil {
				return err
			}
			continue
		}
		if annotations {
			return ErrFallback
		}
		annotations = true
		if err := stash(d, &v.Annotations, prefix); err != nil {
			return err
		}
	}
	return d.End()
}

// stash decodes the entries of a map of strings whose keys start with
// prefix into m, as StringMap decodes every entry.
func stash(d *Decoder, m *map[string]string, prefix string) error {
	if d.Null() {
		*m = nil
		return nil
	}
	if err := d.Begin('{'); err != nil {
		return err
	}
	for d.More() {
		name, err := d.Name()
		if err != nil {
			return err
		}
		if !strings.HasPrefix(string(name), prefix) {
			if err := d.Skip(); err != nil {
				return err
			}
			continue
		}
		k := d.intern(name)
		var e string
		if err := String(d, &e); err != nil {
			return err
		}
		if *m == nil {
			*m = map[string]string{}
		}
		(*m)[k] = e
	}
	return d.End()
}
