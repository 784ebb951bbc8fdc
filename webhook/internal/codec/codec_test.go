package codec

import (
	"bytes"
	stdjson "encoding/json"
	"math"
	"reflect"
	"testing"

	"github.com/go-json-experiment/json"
	jsonv1 "github.com/go-json-experiment/json/v1"

	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/intstr"
	kjson "sigs.k8s.io/json"
)

// object has a field of every kind CRD types use.
type object struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              spec `json:"spec"`
}

type spec struct {
	Name     string               `json:"name,omitempty"`
	Count    int64                `json:"count,omitempty"`
	Small    *int32               `json:"small,omitempty"`
	Ratio    float64              `json:"ratio,omitempty"`
	On       *bool                `json:"on,omitempty"`
	Tags     []string             `json:"tags"`
	Labels   map[string]string    `json:"labels,omitempty"`
	Free     map[string]any       `json:"free,omitempty"`
	Any      any                  `json:"any,omitempty"`
	Raw      runtime.RawExtension `json:"raw,omitempty"`
	Port     intstr.IntOrString   `json:"port,omitempty"`
	Size     *resource.Quantity   `json:"size,omitempty"`
	When     metav1.Time          `json:"when,omitempty"`
	Bytes    []byte               `json:"bytes,omitempty"`
	Items    []item               `json:"items,omitempty"`
	Ptr      *item                `json:"ptr,omitempty"`
	Optional *string              `json:"optional"`
}

type item struct {
	Key   string `json:"key"`
	Value string `json:"value,omitempty"`
}

// reference decodes as the API server does.
func reference(data []byte, v any) error { return kjson.UnmarshalCaseSensitivePreserveInts(data, v) }

// referenceMarshal encodes as the webhook did before: encoding/json without
// HTML escaping.
func referenceMarshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := stdjson.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// TestCodecKeepsTheAPIServersSemantics proves each semantic on its own:
// what the codec decodes, and what it encodes back.
func TestCodecKeepsTheAPIServersSemantics(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		check    func(o *object) bool
	}{
		{"names are case-sensitive", `{"spec":{"Name":"upper","name":"lower","COUNT":5}}`,
			func(o *object) bool { return o.Spec.Name == "lower" && o.Spec.Count == 0 }},
		{"int64 extremes", `{"spec":{"count":9223372036854775807}}`,
			func(o *object) bool { return o.Spec.Count == math.MaxInt64 }},
		{"int64 minimum", `{"spec":{"count":-9223372036854775808}}`,
			func(o *object) bool { return o.Spec.Count == math.MinInt64 }},
		{"2^53+1 stays exact", `{"spec":{"count":9007199254740993,"any":9007199254740993,"free":{"n":9007199254740993}}}`,
			func(o *object) bool {
				return o.Spec.Count == 1<<53+1 && o.Spec.Any == int64(1<<53+1) && o.Spec.Free["n"] == int64(1<<53+1)
			}},
		{"integers in interface values are int64, others float64", `{"spec":{"free":{"i":3,"f":3.5,"e":1e2,"huge":18446744073709551616,"nested":[1,{"x":2}]}}}`,
			nil},
		{"unknown names are dropped", `{"spec":{"name":"n","unknown":{"deep":[1,2]}}}`,
			func(o *object) bool { return o.Spec.Name == "n" }},
		{"the last duplicate wins", `{"spec":{"name":"first","name":"second","count":1,"count":2}}`,
			func(o *object) bool { return o.Spec.Name == "second" && o.Spec.Count == 2 }},
		{"null and absent", `{"spec":{"tags":null,"small":null,"optional":null,"labels":null}}`,
			func(o *object) bool {
				return o.Spec.Tags == nil && o.Spec.Small == nil && o.Spec.Optional == nil && o.Spec.Labels == nil
			}},
		{"empty is not null", `{"spec":{"tags":[],"labels":{},"optional":""}}`,
			func(o *object) bool { return o.Spec.Tags != nil && o.Spec.Labels != nil && o.Spec.Optional != nil }},
		{"invalid UTF-8 is replaced", "{\"spec\":{\"name\":\"a\xffb\"}}",
			func(o *object) bool { return o.Spec.Name == "a\uFFFDb" }},
		{"escaped names and values", `{"sp\u0065c":{"n\u0061me":"\u00e9\n\u2028<>&"}}`,
			func(o *object) bool { return o.Spec.Name == "é\n\u2028<>&" }},
		{"RawExtension keeps its bytes", `{"spec":{"raw":{"b":1,  "a":[true]}}}`,
			func(o *object) bool { return string(o.Spec.Raw.Raw) == `{"b":1,  "a":[true]}` }},
		{"IntOrString, both ways", `{"spec":{"port":8080,"items":[{"key":"k"}]}}`,
			func(o *object) bool { return o.Spec.Port == intstr.FromInt32(8080) }},
		{"IntOrString as a string", `{"spec":{"port":"http"}}`,
			func(o *object) bool { return o.Spec.Port == intstr.FromString("http") }},
		{"Quantity", `{"spec":{"size":"1.5Gi"}}`,
			func(o *object) bool { return o.Spec.Size != nil && o.Spec.Size.String() == "1536Mi" }},
		{"Time", `{"spec":{"when":"2024-02-03T04:05:06Z"},"metadata":{"creationTimestamp":"2024-02-03T04:05:06+01:00"}}`,
			func(o *object) bool {
				return o.Spec.When.Unix() == 1706933106 && o.CreationTimestamp.Unix() == 1706929506
			}},
		{"bytes are base64", `{"spec":{"bytes":"aGk="}}`,
			func(o *object) bool { return string(o.Spec.Bytes) == "hi" }},
		{"metadata", `{"apiVersion":"g/v1","kind":"K","metadata":{"name":"a","labels":{"b":"2","a":"1"},"managedFields":[{"manager":"m","fieldsType":"FieldsV1","fieldsV1":{"f:spec":{}}}]}}`,
			func(o *object) bool { return o.Name == "a" && o.Kind == "K" && len(o.ManagedFields) == 1 }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got, want object
			errGot, errWant := Unmarshal([]byte(tc.in), &got), reference([]byte(tc.in), &want)
			if (errGot != nil) != (errWant != nil) {
				t.Fatalf("error %v, the API server's decoder: %v", errGot, errWant)
			}
			if errGot != nil {
				return
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("decoded\n%#v\nthe API server's decoder\n%#v", got, want)
			}
			if tc.check != nil && !tc.check(&got) {
				t.Errorf("decoded %#v", got.Spec)
			}
			assertSameEncoding(t, &got)
		})
	}
}

func assertSameEncoding(t *testing.T, o *object) {
	t.Helper()
	got, err := Marshal(o)
	if err != nil {
		t.Fatal(err)
	}
	want, err := referenceMarshal(o)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("encoded\n%s\nencoding/json\n%s", got, want)
	}
}

// Errors agree too: what the API server refuses, the codec refuses.
func TestCodecRefusesWhatTheAPIServerRefuses(t *testing.T) {
	for _, in := range []string{
		`{"spec":{"count":"1"}}`, `{"spec":{"count":1.5}}`, `{"spec":{"count":9223372036854775808}}`,
		`{"spec":{"small":2147483648}}`, `{"spec":{"tags":"x"}}`, `{"spec":{"size":"1.5.5"}}`,
		`{"spec":{"when":"yesterday"}}`, `{"spec":[]}`, `{"spec":{"bytes":"!"}}`, `{"spec":{"free":{"big":1e400}}}`,
	} {
		var got, want object
		if errGot, errWant := Unmarshal([]byte(in), &got), reference([]byte(in), &want); (errGot == nil) != (errWant == nil) {
			t.Errorf("%s: error %v, the API server's decoder: %v", in, errGot, errWant)
		}
	}
}

// FuzzCodecAgainstTheAPIServersCodec decodes the same input with both
// codecs: both fail, or both succeed with equal values; and an object
// decoded encodes to the same bytes as with encoding/json.
func FuzzCodecAgainstTheAPIServersCodec(f *testing.F) {
	for _, s := range []string{
		`{"apiVersion":"g/v1","kind":"K","metadata":{"name":"a","labels":{"x":"y"}},"spec":{"name":"n","count":3,"small":4,"ratio":0.5,"on":true,"tags":["a"],"labels":{"k":"v"},"free":{"a":[1,2.5,"s",null,{"b":false}]},"any":7,"raw":{"z":1},"port":"p","size":"100m","when":"2024-01-01T00:00:00Z","bytes":"AQI=","items":[{"key":"k","value":"v"}],"ptr":{"key":"p"},"optional":"o"}}`,
		`{"spec":{"Name":"x","name":"y","name":"z"}}`,
		`{"spec":{"free":{"n":-0,"m":1E+2,"o":12345678901234567890}}}`,
		"{\"spec\":{\"name\":\"\xff\xfe\\ud800\"}}",
		`{"spec":{"tags":null,"labels":{},"optional":null}}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		var got, want object
		errGot, errWant := Unmarshal(in, &got), reference(in, &want)
		if (errGot != nil) != (errWant != nil) {
			t.Fatalf("%q: error %v, the API server's decoder: %v", in, errGot, errWant)
		}
		if errGot != nil {
			return
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%q: decoded\n%#v\nthe API server's decoder\n%#v", in, got, want)
		}
		assertSameEncoding(t, &got)

		// A type without interface values, decoded without preserveInts.
		var gotLean, wantLean leanObject
		errGot, errWant = DecoderFor(reflect.TypeOf(&gotLean)).Unmarshal(in, &gotLean), reference(in, &wantLean)
		if (errGot != nil) != (errWant != nil) {
			t.Fatalf("%q: lean: error %v, the API server's decoder: %v", in, errGot, errWant)
		}
		if errGot == nil && !reflect.DeepEqual(gotLean, wantLean) {
			t.Fatalf("%q: lean: decoded\n%#v\nthe API server's decoder\n%#v", in, gotLean, wantLean)
		}
	})
}

// Integers in interface values stay int64 only thanks to preserveInts:
// go-json-experiment alone decodes them as float64, which loses 2^53+1.
func TestPreserveIntsIsWhatKeepsIntegers(t *testing.T) {
	var v, plain map[string]any
	if err := Unmarshal([]byte(`{"n":9007199254740993}`), &v); err != nil || v["n"] != int64(9007199254740993) {
		t.Fatalf("%#v, %v", v, err)
	}
	without := json.JoinOptions(jsonv1.DefaultOptionsV1(), json.MatchCaseInsensitiveNames(false))
	if err := json.Unmarshal([]byte(`{"n":9007199254740993}`), &plain, without); err != nil || plain["n"] == int64(9007199254740993) {
		t.Fatalf("without preserveInts: %#v, %v", plain, err)
	}
}
