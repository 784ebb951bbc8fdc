package jsoncodec

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/crdforge/crdforge/generators/webhook/testdata/shapes"
	"github.com/crdforge/crdforge/webhook"
	"github.com/crdforge/crdforge/webhook/typedjson"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	kruntime "k8s.io/apimachinery/pkg/runtime"
	kjson "sigs.k8s.io/json"
)

func codec(t *testing.T) webhook.Codec {
	t.Helper()
	c, ok := With([]webhook.Kind{{Group: "shapes.example.com", Kind: "Root"}})[0].Codecs["v1"]
	if !ok || c.Decode == nil || c.Encode == nil {
		t.Fatal("no generated codec for shapes.Root")
	}
	return c
}

// check decodes data with the generated codec and with the API server's
// (sigs.k8s.io/json): where the generated one does not decline, the API
// server's decodes it too, to an equal value; and it encodes that value
// with the generated codec and with encoding/json without HTML escaping:
// where the generated one does not decline, the bytes are the same. It
// reports whether the generated codec did both itself.
func check(t *testing.T, c webhook.Codec, data []byte) bool {
	t.Helper()
	var got, want shapes.Root
	wantErr := kjson.UnmarshalCaseSensitivePreserveInts(data, &want)
	itself := true
	checkTranscode(t, c, data)
	if err := typedjson.Decode[kruntime.Object](data, nil, &got, c.Decode); err != nil {
		itself = false
	} else {
		if wantErr != nil {
			t.Fatalf("the generated codec decoded %q, which the API server refuses: %v", data, wantErr)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("decoding %q\ngenerated:  %#v\nAPI server: %#v", data, got, want)
		}
	}
	if wantErr != nil {
		return itself
	}
	return checkEncode(t, c, &want, data) && itself
}

// checkEncode encodes r, decoded from data, with the generated codec and
// with encoding/json without HTML escaping: where the generated one does
// not decline, the bytes are the same. It reports whether the generated
// codec did not decline.
func checkEncode(t *testing.T, c webhook.Codec, r *shapes.Root, data []byte) bool {
	t.Helper()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	encErr := enc.Encode(r)
	out, err := c.Encode(nil, r)
	if err != nil {
		return false
	}
	if encErr != nil {
		t.Fatalf("the generated codec encoded %#v, which encoding/json refuses: %v", r, encErr)
	}
	if w := bytes.TrimSuffix(buf.Bytes(), []byte("\n")); !bytes.Equal(out, w) {
		t.Fatalf("encoding %q\ngenerated:     %s\nencoding/json: %s", data, out, w)
	}
	return true
}

// checkTranscode decodes data, a Root, with the codec's DecodeData, which
// passes the members every version holds alike (spec: Root is its own
// hub), transcodes them, and encodes the Root with EncodeData: where
// DecodeData does not decline, the transcoders fail exactly where decoding
// the whole Root but its metadata (which the webhook writes as it came in)
// fails, and otherwise EncodeData writes what Encode writes of that Root.
func checkTranscode(t *testing.T, c webhook.Codec, data []byte) {
	t.Helper()
	if len(c.Transcode) == 0 || c.EncodeData == nil {
		t.Fatal("the codec passes no member of Root")
	}
	tape, ok := typedjson.ObjectTape(data)
	if !ok {
		return
	}
	var passed, whole shapes.Root
	var marks typedjson.Marks
	if typedjson.DecodePassing[kruntime.Object](data, tape, &passed, c.DecodeData, &marks) != nil {
		return // the webhook decodes the object whole
	}
	var members map[string]json.RawMessage
	if err := json.Unmarshal(data, &members); err != nil {
		t.Fatalf("%q: DecodeData decoded what encoding/json refuses: %v", data, err)
	}
	delete(members, "metadata")
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false) // the members' bytes as they came in
	if err := enc.Encode(members); err != nil {
		t.Fatal(err)
	}
	dataOnly := buf.Bytes()
	wholeErr := typedjson.Decode[kruntime.Object](dataOnly, nil, &whole, c.Decode)
	raw := make([][]byte, len(c.Transcode))
	var transErr error
	for i, transcode := range c.Transcode {
		if marks[i] == 0 {
			continue
		}
		if raw[i], transErr = typedjson.Transcode(data, tape, marks[i], nil, transcode); transErr != nil {
			break
		}
	}
	if (transErr == nil) != (wholeErr == nil) {
		t.Fatalf("%q: transcoding fails with %v, decoding with %v", data, transErr, wholeErr)
	}
	if transErr != nil {
		return
	}
	whole.ObjectMeta = passed.ObjectMeta
	want, wantErr := c.Encode(nil, &whole)
	got, err := c.EncodeData(nil, &passed, raw, nil)
	if (err == nil) != (wantErr == nil) || !bytes.Equal(got, want) {
		t.Fatalf("%q: transcoded\n%s (%v)\nwant\n%s (%v)", data, got, err, want, wantErr)
	}
	// With a writer of the metadata (the webhook's, of the metadata the
	// object came in with), EncodeData writes what it writes in its place.
	written := metav1.ObjectMeta{Name: "written", Labels: map[string]string{"a": "b"}}
	whole.ObjectMeta = written
	want, wantErr = c.Encode(nil, &whole)
	got, err = c.EncodeData(nil, &passed, raw, func(b []byte) ([]byte, error) { return encode_metav1_ObjectMeta(b, &written) })
	if (err == nil) != (wantErr == nil) || !bytes.Equal(got, want) {
		t.Fatalf("%q: with the metadata written, transcoded\n%s (%v)\nwant\n%s (%v)", data, got, err, want, wantErr)
	}
}

// TestSemantics is the reflection codec's semantics table
// (webhook/internal/codec) through a generated codec, and the shapes only a
// generated one has: promoted fields, recursion, named keys, pointers in
// slices, a struct left to the reflection codec.
func TestSemantics(t *testing.T) {
	c := codec(t)
	for _, tc := range []struct {
		name, in string
		// itself: decoded and encoded by the generated code, without
		// falling back to the reflection codec for the whole object.
		itself bool
	}{
		{"empty", `{}`, true},
		{"null", `null`, true},
		{"type and object meta", `{"apiVersion":"v1","kind":"Root","metadata":{"name":"a","namespace":"b","labels":{"x":"y"},"creationTimestamp":"2030-01-02T03:04:05Z","generation":3}}`, true},
		{"promoted fields", `{"promoted":"p","deep":7}`, true},
		{"case-sensitive names", `{"Spec":{"Name":"x"},"spec":{"name":"y","Count":3,"notag":"n","NoTag":"t"}}`, true},
		{"unknown fields dropped", `{"spec":{"zzz":[1,{"a":null}],"name":"x"},"zzz":{"a":1}}`, true},
		{"the last duplicate wins", `{"spec":{"name":"a","name":"b"}}`, false},
		{"a duplicate struct merges", `{"spec":{"ptr":{"key":"a"},"ptr":{"value":"b"}}}`, false},
		{"duplicate map keys", `{"spec":{"labels":{"a":"1","a":"2"}}}`, true},
		{"null vs absent", `{"spec":{"small":null,"labels":null,"tags":null,"name":null,"ptr":null,"optional":null,"when":null,"until":null,"raw":null,"port":null,"size":null,"any":null,"items":null}}`, true},
		{"empty containers", `{"spec":{"tags":[],"labels":{},"items":[],"nested":[[]],"free":{}}}`, true},
		{"invalid UTF-8", "{\"spec\":{\"name\":\"a\xffb\",\"labels\":{\"k\xfe\":\"v\xc3\"}}}", true},
		{"escaped keys", `{"sp\u0065c":{"n\u0061me":"\u00e9\n","labels":{"\u00e9\"":"x"}}}`, true},
		{"escapes written", `{"spec":{"name":"<a&b>\u2028\u2029\u0001\b\f\n\r\t\"\\\u007f","labels":{"\u2028<":"\u0000"}}}`, true},
		{"int64 extremes", `{"spec":{"count":-9223372036854775808},"deep":9223372036854775807}`, true},
		{"int64 overflow", `{"spec":{"count":9223372036854775808}}`, false},
		{"2^53+1", `{"spec":{"count":9007199254740993,"any":9007199254740993,"free":{"a":9007199254740993,"b":1.5}}}`, true},
		{"int8 overflow", `{"spec":{"tiny":128}}`, false},
		{"a negative unsigned", `{"spec":{"unsigned":-1}}`, false},
		{"floats", `{"spec":{"ratio":1.5e300,"ratio32":0.1}}`, true},
		{"float32 overflow", `{"spec":{"ratio32":1e39}}`, false},
		{"a fraction into an int", `{"spec":{"count":1.5}}`, false},
		{"a string into an int", `{"spec":{"count":"1"}}`, false},
		{"a number into a string", `{"spec":{"name":1}}`, false},
		{"booleans", `{"spec":{"on":false,"off":true}}`, true},
		{"named string and keys", `{"spec":{"named":"Large","keyed":{"b":2,"a":1}}}`, true},
		{"named strings to named strings", `{"spec":{"sized":{"b":"Large","a":null,"\u00e9":"<\u2028>"}}}`, true},
		{"custom types", `{"spec":{"raw":{"a": [1, 2]},"port":"http","size":"1.5Gi","sizes":{"b":"1","a":"2k"},"when":"2030-01-02T03:04:05Z","until":"2030-01-02T03:04:05+02:00"}}`, true},
		{"int-or-string number", `{"spec":{"port":8080}}`, true},
		{"int-or-string extremes", `{"spec":{"port":-2147483648}}`, true},
		{"int-or-string overflow", `{"spec":{"port":2147483648}}`, false},
		{"int-or-string fraction", `{"spec":{"port":1.5}}`, false},
		{"int-or-string exponent", `{"spec":{"port":1e2}}`, false},
		{"int-or-string boolean", `{"spec":{"port":true}}`, false},
		{"int-or-string escapes", `{"spec":{"port":"h\u0074tp\n"}}`, true},
		{"int-or-string HTML", `{"spec":{"port":"<a&b>"}}`, true},
		{"int-or-string beyond ASCII", `{"spec":{"port":"é "}}`, true},
		{"a bad quantity", `{"spec":{"size":"1.5.5"}}`, false},
		{"quantities", `{"spec":{"size":"100m","sizes":{"a":"1.5Gi","b":"0","c":"1e3","d":"0.5","e":"1024Ki","f":"-2","g":"12345678901234567890123"}}}`, true},
		{"quantities not canonical", `{"spec":{"sizes":{"a":" 2 ","b":"+3","c":"1000m","d":"0.10","e":"2048Mi","f":"1E3"}}}`, true},
		{"a quantity as a number", `{"spec":{"size":5,"sizes":{"a":1.5,"b":-0}}}`, true},
		{"an escaped quantity", `{"spec":{"size":"\u0031"}}`, false},
		{"an empty quantity", `{"spec":{"size":""}}`, false},
		{"a quantity of another kind", `{"spec":{"sizes":{"a":true}}}`, false},
		{"a null quantity in a map", `{"spec":{"sizes":{"a":null}}}`, true},
		{"a bad time", `{"spec":{"when":"yesterday"}}`, false},
		{"bytes", `{"spec":{"bytes":"aGVsbG8="}}`, true},
		{"items and pointers to items", `{"spec":{"items":[{"key":"a"},{"key":"b","value":"c"}],"itemPtrs":[{"key":"a"},null]}}`, true},
		{"recursion", `{"spec":{"next":{"name":"n","next":{"count":2}}}}`, true},
		{"an array", `{"spec":{"array":[1,2]}}`, true},
		{"nested slices", `{"spec":{"nested":[["a"],null,[]]}}`, true},
		{"conflicting names dropped", `{"spec":{"conflict":{"a":"x","c":"y"}}}`, true},
		{"an ignored field, and one named -", `{"spec":{"Ignored":"i","-":"dash"}}`, true},
		{"interface values", `{"spec":{"any":{"a":[1,"b",null,true]}}}`, true},
		{"omitzero pointers to zero values", `{"spec":{"omit":{"partE":{},"partZ":{},"partEZ":{},"refEZ":{},"strZ":"","strEZ":"","intZ":0,"intEZ":0,"timeE":"0001-01-01T00:00:00Z","timeZ":"0001-01-01T00:00:00Z","timeEZ":"0001-01-01T00:00:00Z","quantityZ":"0","quantityEZ":"0"}}}`, true},
		{"omitzero pointers to values", `{"spec":{"omit":{"partZ":{"name":"a"},"refEZ":{"name":"b"},"strEZ":"c","intZ":-1,"timeZ":"2030-01-02T03:04:05Z","timeEZ":"2030-01-02T03:04:05Z","quantityZ":"1m","quantityEZ":"-1"}}}`, true},
		{"omitzero values", `{"spec":{"omit":{"strValEZ":"","intValEZ":0,"listEZ":[],"mapEZ":{},"anyEZ":null,"time":"0001-01-01T00:00:00Z","quantity":"0"}}}`, true},
		{"IsZero true", `{"spec":{"omit":{"mode":"none","modeE":"none","modeEZ":"none","modeZ":"none","modePtrEZ":"none","level":-1,"levelEZ":-2,"levelZ":-3,"levelPtrEZ":0,"span":{"from":1,"to":1},"spanZ":{"from":2,"to":2},"limit":{"max":-1},"limitZ":{"max":-1},"limitPtrEZ":{"max":-1},"levelsEZ":[0,-1]}}}`, true},
		{"IsZero false", `{"spec":{"omit":{"mode":"a","modeEZ":"b","modeZ":"","modePtrEZ":"c","level":1,"levelZ":2,"span":{"from":1,"to":2},"spanZ":{"from":0,"to":1},"limitZ":{"max":0},"limitPtrEZ":{"max":3},"levelsEZ":[1]}}}`, true},
		{"no IsZero through two pointers or a named one", `{"spec":{"omit":{"deeper":"none","namedPtrZ":"none"}}}`, true},
		{"a negative zero and an IsZero of another signature", `{"spec":{"odd":{"floatEZ":-0,"loose":"-","loosePtr":""}}}`, true},
		{"trailing data", `{} {}`, false},
		{"malformed", `{"spec":{]`, false},
		{"a literal cut short", `{"spec":{"off":f0}}`, false},
		{"a literal cut short, into a pointer", `{"spec":{"on":tru}}`, false},
		{"not an object", `[1]`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if itself := check(t, c, []byte(tc.in)); itself != tc.itself {
				t.Errorf("done by the generated codec itself: %v, want %v", itself, tc.itself)
			}
		})
	}
}

// TestOmitZeroValues holds the generated encoder to encoding/json on
// omitzero members holding what no JSON decodes to: an interface whose
// value has IsZero, or is a nil pointer; a non-nil pointer to a nil one.
func TestOmitZeroValues(t *testing.T) {
	c := codec(t)
	none, some := shapes.Mode("none"), shapes.Mode("some")
	var nilMode *shapes.Mode
	for name, z := range map[string]shapes.Zeroer{
		"nil":              nil,
		"a nil pointer":    (*shapes.Level)(nil),
		"IsZero true":      none,
		"IsZero false":     some,
		"a pointer, zero":  &none,
		"a pointer, not":   &some,
		"a value, nonzero": shapes.Levels{1},
	} {
		t.Run(name, func(t *testing.T) {
			var r shapes.Root
			r.Spec.Zeroer.Z = z
			r.Spec.Omit.Deeper = &nilMode
			r.Spec.Omit.NamedPtrZ = &none
			checkEncode(t, c, &r, []byte(name))
		})
	}
}

// TestEncodingNaNFallsBack: a value encoding/json refuses is refused by the
// generated encoder too, for the reflection codec's error.
func TestEncodingNaNFallsBack(t *testing.T) {
	var r shapes.Root
	r.Spec.Ratio = zero / zero
	if _, err := codec(t).Encode(nil, &r); err == nil {
		t.Fatal("encoded NaN")
	}
}

var zero float64

// FuzzSemantics runs check on random input.
func FuzzSemantics(f *testing.F) {
	f.Add([]byte(`{"spec":{"name":"a","name":"b","labels":{"a":"1","a":null},"next":{"items":[{"key":"k"}]}}}`))
	f.Add([]byte(`{"spec":{"raw":{"a":[1,2]},"port":"http","size":"1.5Gi","when":"2030-01-02T03:04:05Z","any":[1,2.5]}}`))
	f.Add([]byte(`{"promoted":"p","deep":7,"metadata":{"name":"a"},"spec":{"keyed":{"k":1},"bytes":"aGk="}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		check(t, codec(t), data)
	})
}
