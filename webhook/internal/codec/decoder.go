package codec

import (
	"reflect"

	"github.com/go-json-experiment/json"
	jsonv1 "github.com/go-json-experiment/json/v1"
)

// Decoder decodes JSON into values of one Go type with the API server's
// semantics, doing no work that type cannot need. Get one per type, once,
// from DecoderFor; it is safe for concurrent use.
type Decoder struct {
	// fast is the first attempt: streaming, and without preserveInts when
	// the type has no interface value for it to act on, which spares every
	// struct field, slice element and map value a lookup of the functions
	// that could override its decoding.
	fast json.Options
}

// anyType is the Decoder of a type not known in advance.
var anyType = Decoder{fast: json.JoinOptions(options, streaming)}

// DecoderFor returns the Decoder of values of type t.
func DecoderFor(t reflect.Type) Decoder {
	if reachesInterface(t, map[reflect.Type]bool{}) {
		return anyType
	}
	return Decoder{fast: json.JoinOptions(base, streaming)}
}

// Unmarshal decodes data into v, which must point to a zero value of the
// Decoder's type (a new object): on an error v is zeroed again and the
// decode done once more with v1's error reporting, for the error the API
// server's codec would give.
func (d Decoder) Unmarshal(data []byte, v any) error {
	err := json.Unmarshal(data, v, d.fast)
	if err == nil {
		return nil
	}
	if rv := reflect.ValueOf(v); rv.Kind() == reflect.Pointer && !rv.IsNil() {
		rv.Elem().SetZero()
	}
	return json.Unmarshal(data, v, options)
}

var (
	unmarshalerV1 = reflect.TypeFor[jsonv1.Unmarshaler]()
	unmarshalerV2 = reflect.TypeFor[json.UnmarshalerFrom]()
)

// reachesInterface reports whether decoding into a t can decode into an
// interface value: through its fields, elements, keys and pointers, but not
// into a type whose own UnmarshalJSON method decodes it. It errs on the
// side of yes: fields of other kinds the decoder skips, such as unexported
// ones, are walked too, but for those it is told to skip ("-").
func reachesInterface(t reflect.Type, seen map[reflect.Type]bool) bool {
	if seen[t] {
		return false // walked, or being walked: the answer comes from there
	}
	seen[t] = true
	if p := reflect.PointerTo(t); p.Implements(unmarshalerV1) || p.Implements(unmarshalerV2) {
		return false
	}
	switch t.Kind() {
	case reflect.Interface:
		return true
	case reflect.Pointer, reflect.Slice, reflect.Array:
		return reachesInterface(t.Elem(), seen)
	case reflect.Map:
		return reachesInterface(t.Key(), seen) || reachesInterface(t.Elem(), seen)
	case reflect.Struct:
		for i := range t.NumField() {
			f := t.Field(i)
			if f.Tag.Get("json") == "-" {
				continue
			}
			if reachesInterface(f.Type, seen) {
				return true
			}
		}
	}
	return false
}
