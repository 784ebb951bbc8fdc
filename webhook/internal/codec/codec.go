// Package codec is the conversion webhook's reflection codec for typed
// objects: the API server's own, sigs.k8s.io/json's
// UnmarshalCaseSensitivePreserveInts to decode (encoding/json with
// case-sensitive names, and integers in interface values kept as int64)
// and encoding/json without HTML escaping to encode. The generated codecs
// (package typedjson) are the fast path; this one is what they leave to it
// and what decides when they decline.
//
// Only the standard library and sigs.k8s.io/json, which every project on
// k8s.io/apimachinery already requires, are used, so that the webhook builds
// with every Go release and module graph a project may have.
package codec

import (
	"bytes"
	"encoding/json"

	kjson "sigs.k8s.io/json"
)

// Unmarshal decodes data into v, a pointer, as the API server decodes an
// object: names match case-sensitively, unknown names are dropped, the last
// of duplicate names wins, invalid UTF-8 becomes U+FFFD, and an integer
// decoded into an interface value is an int64 when it fits. It merges into
// what v already holds, as encoding/json does.
func Unmarshal(data []byte, v any) error {
	return kjson.UnmarshalCaseSensitivePreserveInts(data, v)
}

// MarshalWrite appends the encoding of v to buf: encoding/json's, but for
// HTML characters, which the API server does not escape either. U+2028 and
// U+2029 still are. On an error buf is as it was.
func MarshalWrite(buf *bytes.Buffer, v any) error {
	enc := json.NewEncoder(buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return err
	}
	buf.Truncate(buf.Len() - 1) // the newline Encode ends with
	return nil
}

// MarshalAppend appends the encoding of v to b, as MarshalWrite writes it.
func MarshalAppend(b []byte, v any) ([]byte, error) {
	buf := bytes.NewBuffer(b)
	err := MarshalWrite(buf, v)
	return buf.Bytes(), err
}
