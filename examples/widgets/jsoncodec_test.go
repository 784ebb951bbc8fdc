package widgets_test

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"

	kruntime "k8s.io/apimachinery/pkg/runtime"
	kjson "sigs.k8s.io/json"

	v1 "github.com/crdforge/crdforge/examples/widgets/api/v1"
	"github.com/crdforge/crdforge/examples/widgets/api/v1alpha1"
	"github.com/crdforge/crdforge/examples/widgets/api/v1beta1"
	"github.com/crdforge/crdforge/examples/widgets/cmd/webhook/jsoncodec"
	"github.com/crdforge/crdforge/webhook"
	"github.com/crdforge/crdforge/webhook/typedjson"
)

func init() { withCodecs = jsoncodec.With }

// generatedCodecs are the generated webhook's codecs of the widgets, by
// version, with a new object of each.
func generatedCodecs(tb testing.TB) map[string]struct {
	codec webhook.Codec
	new   func() kruntime.Object
} {
	k := jsoncodec.With([]webhook.Kind{{Group: "widgets.example.com", Kind: "Widget"}})[0]
	news := map[string]func() kruntime.Object{
		"v1":       func() kruntime.Object { return new(v1.Widget) },
		"v1beta1":  func() kruntime.Object { return new(v1beta1.Widget) },
		"v1alpha1": func() kruntime.Object { return new(v1alpha1.Widget) },
	}
	out := map[string]struct {
		codec webhook.Codec
		new   func() kruntime.Object
	}{}
	for v, n := range news {
		c, ok := k.Codecs[v]
		if !ok || c.Decode == nil || c.Encode == nil {
			tb.Fatalf("no generated codec for %s", v)
		}
		out[v] = struct {
			codec webhook.Codec
			new   func() kruntime.Object
		}{c, n}
	}
	return out
}

// checkDecode decodes data into every version with its generated codec and
// with the API server's (sigs.k8s.io/json): where the generated one
// succeeds, the API server's must too, to an equal object. It reports
// whether the generated codec decoded every version itself.
func checkDecode(t *testing.T, data []byte) bool {
	t.Helper()
	all := true
	for v, c := range generatedCodecs(t) {
		got, want := c.new(), c.new()
		wantErr := kjson.UnmarshalCaseSensitivePreserveInts(data, want)
		if err := typedjson.Decode(data, nil, got, c.codec.Decode); err != nil {
			all = false
			continue // the webhook decodes it again by reflection
		}
		if wantErr != nil {
			t.Fatalf("%s: the generated codec decoded %q, which the API server refuses: %v", v, data, wantErr)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%s: decoding %q\ngenerated:  %+v\nAPI server: %+v", v, data, got, want)
		}
		if !checkEncode(t, c.codec, want) {
			all = false
		}
	}
	return all
}

// checkEncode encodes obj with the generated codec and with encoding/json
// without HTML escaping, as the API server writes: where the generated one
// succeeds, both write the same bytes. It reports whether it succeeded.
func checkEncode(t *testing.T, c webhook.Codec, obj kruntime.Object) bool {
	t.Helper()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	wantErr := enc.Encode(obj)
	want := bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
	got, err := c.Encode([]byte("prefix"), obj)
	if err != nil {
		return false
	}
	if wantErr != nil {
		t.Fatalf("the generated codec encoded %+v, which encoding/json refuses: %v", obj, wantErr)
	}
	if !bytes.HasPrefix(got, []byte("prefix")) || !bytes.Equal(got[len("prefix"):], want) {
		t.Fatalf("encoding %+v\ngenerated:     %s\nencoding/json: %s", obj, got, want)
	}
	return true
}

func TestGeneratedCodecDecodesAsTheAPIServer(t *testing.T) {
	w := widget(1)
	full, err := json.Marshal(&w)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		in   string
		// itself: the generated codec decodes it without falling back.
		itself bool
	}{
		{"a full widget", string(full), true},
		{"empty", `{}`, true},
		{"null", `null`, true},
		{"names are case-sensitive", `{"Spec":{"DisplayName":"x"},"spec":{"displayName":"y","Size":"Large"}}`, true},
		{"unknown fields dropped", `{"spec":{"nope":[1,{"a":null}],"displayName":"x"},"zzz":1}`, true},
		{"a duplicate name, the last wins", `{"spec":{"displayName":"a","displayName":"b"}}`, false},
		{"duplicate struct, merged", `{"spec":{"network":{"host":"a"},"network":{"port":1}}}`, false},
		{"duplicate map keys", `{"spec":{"labels":{"a":"1","a":"2"}}}`, true},
		{"null vs absent", `{"spec":{"replicas":null,"labels":null,"parts":null,"displayName":null,"warranty":null}}`, true},
		{"empty list and map", `{"spec":{"parts":[],"labels":{},"finishes":{}}}`, true},
		{"invalid UTF-8", "{\"spec\":{\"displayName\":\"a\xffb\",\"labels\":{\"k\xfe\":\"v\"}}}", true},
		{"escapes written", `{"spec":{"displayName":"<a&b>\u2028\u2029\u0001\b\f\n\r\t\"\\\u007f\u00e9","labels":{"\u2028<":"\u0000"}}}`, true},
		{"raw extension with spaces", `{"spec":{"options":{ "a" : [1, 2] }}}`, true},
		{"zero time, empty quantity", `{"metadata":{"creationTimestamp":"0001-01-01T00:00:00Z"},"spec":{"warranty":{"until":null},"parts":[{"weight":"0"}]}}`, true},
		{"escaped keys", `{"sp\u0065c":{"display\u004eame":"\u00e9\n\"","labels":{"\u00e9":"x"}}}`, true},
		{"int extremes", `{"status":{"observedGeneration":9223372036854775807}}`, true},
		{"int64 overflow", `{"status":{"observedGeneration":9223372036854775808}}`, false},
		{"2^53+1", `{"status":{"observedGeneration":9007199254740993}}`, true},
		{"int32 overflow", `{"spec":{"replicas":2147483648}}`, false},
		{"a fraction into an int", `{"spec":{"replicas":1.5}}`, false},
		{"an exponent into an int", `{"spec":{"replicas":1e2}}`, false},
		{"a string into an int", `{"spec":{"replicas":"1"}}`, false},
		{"a number into a string", `{"spec":{"displayName":1}}`, false},
		{"quantity, time, int-or-string, raw", `{"spec":{"parts":[{"name":"a","weight":"1.5Gi"},{"weight":null}],"network":{"port":"http"},"options":{"a": [1, 2]},"warranty":{"until":"2030-01-02T03:04:05Z"}}}`, true},
		{"a bad quantity", `{"spec":{"parts":[{"weight":"1.5.5"}]}}`, false},
		{"metadata", `{"metadata":{"name":"a","labels":{"x":"y"},"creationTimestamp":null,"generation":3,"ownerReferences":[{"uid":"u","controller":true}]}}`, true},
		{"trailing data", `{} {}`, false},
		{"malformed", `{"spec":{]`, false},
		{"not an object", `[1]`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if itself := checkDecode(t, []byte(tc.in)); itself != tc.itself {
				t.Errorf("decoded by the generated codec itself: %v, want %v", itself, tc.itself)
			}
		})
	}
}

// FuzzGeneratedCodecAgainstTheAPIServer decodes random input into every
// widget version with the generated codec and sigs.k8s.io/json: where the
// generated codec does not decline, both give the same object.
func FuzzGeneratedCodecAgainstTheAPIServer(f *testing.F) {
	w := widget(1)
	full, err := json.Marshal(&w)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(full)
	f.Add([]byte(`{"spec":{"displayName":"a","displayName":"b","labels":{"a":"1","a":null}}}`))
	f.Add([]byte(`{"spec":{"parts":[{"name":"a","weight":"1.5Gi"},{"weight":null}],"network":{"port":"http"},"options":{"a":[1,2]}}}`))
	f.Add([]byte(`{"status":{"observedGeneration":9007199254740993,"conditions":[{"type":"a","lastTransitionTime":null}]}}`))
	f.Add([]byte(`{"metadata":{"name":"a","creationTimestamp":"2030-01-02T03:04:05Z","managedFields":[{"fieldsV1":{"f:a":{}}}]}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		checkDecode(t, data)
	})
}

func BenchmarkGeneratedDecode(b *testing.B) {
	w := widget(1)
	w.ManagedFields = nil
	raw, err := json.Marshal(&w)
	if err != nil {
		b.Fatal(err)
	}
	c := generatedCodecs(b)["v1"]
	b.ReportAllocs()
	for b.Loop() {
		if err := typedjson.Decode(raw, nil, c.new(), c.codec.Decode); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkReflectionDecode(b *testing.B) {
	w := widget(1)
	w.ManagedFields = nil
	raw, err := json.Marshal(&w)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if err := kjson.UnmarshalCaseSensitivePreserveInts(raw, new(v1.Widget)); err != nil {
			b.Fatal(err)
		}
	}
}
