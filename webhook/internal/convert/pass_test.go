package convert_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/runtime"

	"github.com/crdforge/crdforge/webhook/internal/convert"
	"github.com/crdforge/crdforge/webhook/internal/jsonscan"
	"github.com/crdforge/crdforge/webhook/internal/testkit"
	"github.com/crdforge/crdforge/webhook/typedjson"
)

// decodeBoxV2Passing decodes a v2 Box as a generated DecodeData that passes
// its host would.
func decodeBoxV2Passing(d *typedjson.Decoder, obj runtime.Object) error {
	b := obj.(*testkit.BoxV2)
	return decodeBoxData(d, &b.TypeMeta, &b.ObjectMeta, map[string]*string{"port": &b.Port}, "host")
}

// encodeBoxV3Passing encodes a v3 Box as a generated EncodeData would,
// its host from raw[0] when that is set and its metadata with meta when
// that is set.
func encodeBoxV3Passing(b []byte, obj runtime.Object, raw [][]byte, meta func([]byte) ([]byte, error)) ([]byte, error) {
	box := *obj.(*testkit.BoxV3)
	if raw[0] != nil {
		if err := json.Unmarshal(raw[0], &box.Host); err != nil {
			return b, err
		}
	}
	var out bytes.Buffer
	enc := json.NewEncoder(&out)
	enc.SetEscapeHTML(false) // as the API server writes
	if err := enc.Encode(&box); err != nil {
		return b, err
	}
	encoded := bytes.TrimSuffix(out.Bytes(), []byte("\n"))
	if meta == nil {
		return append(b, encoded...), nil
	}
	m, err := meta(nil)
	if err != nil {
		return b, err
	}
	encoded, err = jsonscan.ReplaceMember(encoded, "metadata", m)
	return append(b, encoded...), err
}

// A route whose versions' DecodeData both pass a member writes it as it came
// in, transcoded, and answers what the reflection codec answers. An object
// holding the stash of the hub's or the destination's version goes the typed
// path instead, which may restore a stashed field into any member (another
// version's stash converting leaves alone); and where the encoder declines,
// the object is converted again without passing.
func TestTablePassesMembersOfObjectsWithoutAStash(t *testing.T) {
	reflection, err := convert.NewTable(box())
	if err != nil {
		t.Fatal(err)
	}
	plain := `{"apiVersion":"test.io/v2","kind":"Box","metadata":{"name":"a","annotations":{"k":"v"}},"host":"h\u0041<","port":"1"}`
	stashed := `{"apiVersion":"test.io/v2","kind":"Box","metadata":{"name":"a","annotations":{"conversion.crdforge.io/v3":"sparse:{}"}},"host":"h","port":"1"}`
	for _, tc := range []struct {
		name           string
		in             string
		encoderFails   bool
		wantTranscoded int
	}{
		{"no stash", plain, false, 1},
		{"a stash of the destination's version", stashed, false, 0},
		{"another version's stash", strings.Replace(stashed, "crdforge.io/v3", "crdforge.io/v1", 1), false, 1},
		{"the hub's stash", strings.Replace(stashed, "crdforge.io/v3", "crdforge.io/v2", 1), false, 0},
		{"the encoder declines", plain, true, 1},
	} {
		transcoded := 0
		transcode := []func(*typedjson.Decoder, []byte) ([]byte, error){func(d *typedjson.Decoder, b []byte) ([]byte, error) {
			transcoded++
			b, _, err := typedjson.TranscodeString(d, b)
			return b, err
		}}
		encodeData := encodeBoxV3Passing
		if tc.encoderFails {
			encodeData = func(b []byte, _ runtime.Object, _ [][]byte, _ func([]byte) ([]byte, error)) ([]byte, error) {
				return b, errors.New("declined")
			}
		}
		k := box()
		k.Codecs = map[string]convert.Codec{
			// Decode declines: objects not passing go to the reflection codec.
			"v2": {Decode: func(*typedjson.Decoder, runtime.Object) error { return typedjson.ErrFallback }, DecodeData: decodeBoxV2Passing, Transcode: transcode},
			"v3": {DecodeData: decodeBoxV2Passing, Transcode: transcode, EncodeData: encodeData},
		}
		table, err := convert.NewTable(k)
		if err != nil {
			t.Fatal(err)
		}
		want, err := reflection.Convert(object(t, tc.in), "test.io/v3")
		if err != nil {
			t.Fatal(err)
		}
		got, err := table.Convert(object(t, tc.in), "test.io/v3")
		if err != nil || string(got) != string(want) {
			t.Errorf("%s: Convert = %s, %v\nwant %s", tc.name, got, err, want)
		}
		if transcoded != tc.wantTranscoded {
			t.Errorf("%s: transcoded %d times, want %d", tc.name, transcoded, tc.wantTranscoded)
		}
	}
}
