package jsonscan

import (
	"bytes"
	"encoding/json"
	"fmt"
	"testing"
	"unicode/utf8"
)

// rebuild reads one value from t a token at a time, containers through
// Begin, Name and End (or, every other level down, whole through Value)
// and leaves through Value, and appends it to out as compact JSON. It fails
// where Plain misjudges a name or string read.
func rebuild(t *Tokens, out []byte, depth int) ([]byte, error) {
	switch k := t.Peek(); {
	case (k == '{' || k == '[') && depth%2 == 0:
		if err := t.Begin(k); err != nil {
			return nil, err
		}
		out = append(out, k)
		for first := true; ; first = false {
			if c := t.Peek(); c == '}' || c == ']' || c == 0 {
				break
			}
			if !first {
				out = append(out, ',')
			}
			if k == '{' {
				name, err := t.Name()
				if err != nil {
					return nil, err
				}
				if err := checkPlain(t, name); err != nil {
					return nil, err
				}
				out = append(append(out, name...), ':')
			}
			var err error
			if out, err = rebuild(t, out, depth+1); err != nil {
				return nil, err
			}
		}
		if err := t.End(); err != nil {
			return nil, err
		}
		return append(out, closer(k)), nil
	default: // a leaf, or a container read whole
		v, err := t.Value()
		if err != nil {
			return nil, err
		}
		if k == KindString {
			if err := checkPlain(t, v); err != nil {
				return nil, err
			}
		}
		var c bytes.Buffer
		_ = json.Compact(&c, v)
		return append(out, c.Bytes()...), nil
	}
}

// checkPlain checks what t.Plain says of raw, the string literal t read
// last: that it holds no escape and is valid UTF-8.
func checkPlain(t *Tokens, raw []byte) error {
	inner := raw[1 : len(raw)-1]
	if want := bytes.IndexByte(inner, '\\') < 0 && utf8.Valid(inner); t.Plain() != want {
		return fmt.Errorf("Plain says %t of %q, want %t", t.Plain(), raw, want)
	}
	return nil
}

// checkTokens asserts that Tokens reads in whole exactly when encoding/json
// calls it valid, and that the tokens it reads are in's, in order.
func checkTokens(t *testing.T, in []byte) {
	t.Helper()
	var tok Tokens
	tok.Reset(in)
	got, err := rebuild(&tok, nil, 0)
	ok := err == nil && tok.AtEnd()
	if want := json.Valid(in); ok != want {
		t.Fatalf("%q: read whole %t (%v, %v), encoding/json says valid %t", in, ok, err, tok.Err(), want)
	}
	if !ok {
		return
	}
	var want bytes.Buffer
	_ = json.Compact(&want, in)
	if !bytes.Equal(got, want.Bytes()) {
		t.Fatalf("%q: read\n%s\nwant\n%s", in, got, want.Bytes())
	}
}

var tokenCases = []string{
	`{}`, `[]`, `{"a":1}`, ` { "a" : [ 1 , 2 , { "b" : null } ] , "c" : "d" } `, `[[],[[]],{}]`, `[{"a":[1,{"b":[]}]},[[2]]]`, `{"a":{"b":{"c":[{}]}}}`,
	`"s"`, `0`, `-1.5e+3`, `true`, `false`, `null`, "\"a\xffb\"", `{"\u0061":"\ud800"}`,
	``, ` `, `{`, `[`, `}`, `]`, `{]`, `[}`, `[1,]`, `{"a":1,}`, `{,}`, `[,1]`, `{"a"}`, `{"a":}`,
	`{"a" 1}`, `{1:2}`, `[1 2]`, `1 2`, `{} {}`, `[1]]`, `{"a":1}}`, `nul`, `tru`, `-`, `01`, `1.`,
	`{"a":1"b":2}`, `["a",]`, `[1,,2]`, "\"\x01\"", `"\x"`,
	`{"é":"ü","a\"b":"\u00e9","c":["plain","\\"]}`, "{\"\xc3\x28\":\"\xe2\x82\",\"ok\":\"\xe2\x82\xac\"}",
}

func TestTokensReadExactlyValidJSON(t *testing.T) {
	for _, in := range tokenCases {
		checkTokens(t, []byte(in))
	}
}

// A call that does not fit what comes next fails, and so does every call
// after it.
func TestTokensRefuseCallsThatDoNotFit(t *testing.T) {
	for _, tc := range []struct {
		in   string
		call func(*Tokens) error
	}{
		{`{"a":1}`, func(t *Tokens) error { _ = t.Begin('{'); _, err := t.Value(); return err }},
		{`{"a":1}`, func(t *Tokens) error { return t.Begin('[') }},
		{`[1]`, func(t *Tokens) error { _ = t.Begin('['); _, err := t.Name(); return err }},
		{`[1]`, func(t *Tokens) error { _ = t.Begin('['); return t.End() }},
		{`{"a":{}}`, func(t *Tokens) error { _ = t.Begin('{'); _, _ = t.Name(); return t.End() }},
		{`1`, func(t *Tokens) error { return t.End() }},
	} {
		var tok Tokens
		tok.Reset([]byte(tc.in))
		if err := tc.call(&tok); err == nil {
			t.Errorf("%s: the call did not fail", tc.in)
		}
		if _, err := tok.Value(); err == nil || tok.Err() == nil {
			t.Errorf("%s: a call after the failure did not fail", tc.in)
		}
	}
}

func FuzzTokensAgainstEncodingJSON(f *testing.F) {
	for _, in := range tokenCases {
		f.Add([]byte(in))
	}
	f.Fuzz(checkTokens)
}
