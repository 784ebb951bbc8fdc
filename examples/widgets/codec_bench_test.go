package widgets_test

import (
	"encoding/json"
	"testing"

	jsoniter "github.com/json-iterator/go"
	kjson "sigs.k8s.io/json"

	v1 "github.com/crdforge/crdforge/examples/widgets/api/v1"
)

// BenchmarkCodec measures the JSON codecs the webhook could use, on a full
// v1 Widget: encoding/json, sigs.k8s.io/json (the API server's own decoder:
// case-sensitive field names, int64 kept exact in untyped values), and
// json-iterator in its standard-library-compatible mode (as apimachinery
// once used it). TestCodecSemantics shows which keep Kubernetes' semantics.
func BenchmarkCodec(b *testing.B) {
	w := widget(0)
	raw, err := json.Marshal(&w)
	if err != nil {
		b.Fatal(err)
	}
	iter := jsoniter.ConfigCompatibleWithStandardLibrary
	decoders := []struct {
		name string
		fn   func([]byte, any) error
	}{
		{"encoding-json", json.Unmarshal},
		{"sigs.k8s.io-json", kjson.UnmarshalCaseSensitivePreserveInts},
		{"json-iterator", iter.Unmarshal},
	}
	for _, d := range decoders {
		b.Run("decode/"+d.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(raw)))
			for b.Loop() {
				var out v1.Widget
				if err := d.fn(raw, &out); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	encoders := []struct {
		name string
		fn   func(any) ([]byte, error)
	}{
		{"encoding-json", json.Marshal},
		{"json-iterator", iter.Marshal},
	}
	for _, e := range encoders {
		b.Run("encode/"+e.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(raw)))
			for b.Loop() {
				if _, err := e.fn(&w); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestCodecSemantics records why the webhook decodes with sigs.k8s.io/json:
// a field spelled in the wrong case must not be read as the field, as the
// API server does not read it either.
func TestCodecSemantics(t *testing.T) {
	raw := []byte(`{"spec":{"DisplayName":"wrong case"}}`)
	var std, k8s, iterOut v1.Widget
	for _, d := range []struct {
		name string
		err  error
	}{
		{"encoding/json", json.Unmarshal(raw, &std)},
		{"sigs.k8s.io/json", kjson.UnmarshalCaseSensitivePreserveInts(raw, &k8s)},
		{"json-iterator", jsoniter.ConfigCompatibleWithStandardLibrary.Unmarshal(raw, &iterOut)},
	} {
		// A wrongly cased field is dropped or read, never an error.
		if d.err != nil {
			t.Fatalf("%s: %v", d.name, d.err)
		}
	}
	if k8s.Spec.DisplayName != "" {
		t.Errorf("sigs.k8s.io/json read a wrongly cased field")
	}
	if std.Spec.DisplayName == "" || iterOut.Spec.DisplayName == "" {
		t.Logf("encoding/json: %q, json-iterator: %q", std.Spec.DisplayName, iterOut.Spec.DisplayName)
	} else {
		t.Logf("encoding/json and json-iterator match field names case-insensitively (%q), unlike the API server", std.Spec.DisplayName)
	}
}
