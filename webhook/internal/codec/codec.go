// Package codec is the conversion webhook's JSON codec for typed objects:
// github.com/go-json-experiment/json (the proposed encoding/json/v2) set to
// the semantics of the API server's own codec, sigs.k8s.io/json's
// UnmarshalCaseSensitivePreserveInts for input and encoding/json for output,
// at a fraction of their cost. It was chosen by measurement (BENCHMARKS.md,
// issue 11); codec_test.go proves each semantic in a table and fuzzes the
// two codecs against each other.
package codec

import (
	"bytes"
	"strconv"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	jsonv1 "github.com/go-json-experiment/json/v1"
)

// base are encoding/json's (v1) semantics, which sigs.k8s.io/json keeps
// but for two changes that make it the API server's: names match
// case-sensitively, and (in options, below) a number decoded into an
// interface value is an int64 when it is an integer that fits, as
// sigs.k8s.io/json's PreserveInts does. On output, HTML characters are not
// escaped, as the API server writes JSON (encoding/json's
// SetEscapeHTML(false)); U+2028 and U+2029 still are, as by encoding/json.
//
// What v1 semantics mean here, each as encoding/json does it: unknown
// names dropped, the last of duplicate names wins, invalid UTF-8 accepted
// (replaced by U+FFFD), omitempty as in v1, nil slices and maps written as
// null, map keys sorted, MarshalJSON/UnmarshalJSON methods called (Time,
// Quantity, IntOrString, RawExtension keep their formats).
var base = json.JoinOptions(
	jsonv1.DefaultOptionsV1(),
	json.MatchCaseInsensitiveNames(false),
	jsontext.EscapeForHTML(false),
)

// options are the API server's semantics: base, with integers in interface
// values kept as int64.
var options = json.JoinOptions(base, json.WithUnmarshalers(json.UnmarshalFromFunc(preserveInts)))

// streaming turns off v1's way of reporting errors, which costs every
// decode a whole validating pass over its input before the decode proper
// (besides choosing which error to report, and how to wrap it). Every use
// of the flag in go-json-experiment is on a path that ends in an error, so a
// decode that succeeds without it yields what it would have with it; one
// that fails is done again with it, for the error v1 would give.
var streaming = jsonv1.ReportErrorsWithLegacySemantics(false)

// preserveInts decodes a JSON number into an interface value as an int64
// when it is an integer that fits, else as a float64; anything else is left
// to the default.
func preserveInts(dec *jsontext.Decoder, v *any) error {
	if dec.PeekKind() != '0' {
		return json.SkipFunc
	}
	val, err := dec.ReadValue()
	if err != nil {
		return err
	}
	if !bytes.ContainsAny(val, ".eE") {
		if i, err := strconv.ParseInt(string(val), 10, 64); err == nil {
			*v = i
			return nil
		}
	}
	f, err := strconv.ParseFloat(string(val), 64)
	if err != nil {
		return err
	}
	*v = f
	return nil
}

// Unmarshal decodes data into v, a pointer to a zero value (a new object):
// on an error v is zeroed again before the decode that reports it.
func Unmarshal(data []byte, v any) error {
	return anyType.Unmarshal(data, v)
}

// Marshal encodes v.
func Marshal(v any) ([]byte, error) {
	return json.Marshal(v, options)
}

// MarshalWrite appends the encoding of v to buf, as Marshal encodes it.
func MarshalWrite(buf *bytes.Buffer, v any) error {
	return json.MarshalWrite(buf, v, options)
}

// UnmarshalValue decodes data into v, as Unmarshal does, but merging into
// what v already holds, as a field of a larger value is decoded: for the
// values a generated codec leaves to this one. Its errors are not v1's; a
// generated codec that gets one falls back to Unmarshal of the whole object.
func UnmarshalValue(data []byte, v any) error {
	return json.Unmarshal(data, v, options)
}

// MarshalAppend appends the encoding of v to b, as Marshal encodes it.
func MarshalAppend(b []byte, v any) ([]byte, error) {
	buf := bytes.NewBuffer(b)
	err := json.MarshalWrite(buf, v, options)
	return buf.Bytes(), err
}
