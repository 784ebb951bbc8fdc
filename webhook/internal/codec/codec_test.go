package codec

import (
	"bytes"
	stdjson "encoding/json"
	"math"
	"reflect"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/intstr"
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
			func(o *object) bool {
				f := o.Spec.Free
				return f["i"] == int64(3) && f["f"] == 3.5 && f["e"] == 100.0 && f["huge"] == 18446744073709551616.0 &&
					reflect.DeepEqual(f["nested"], []any{int64(1), map[string]any{"x": int64(2)}})
			}},
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
			var got object
			if err := Unmarshal([]byte(tc.in), &got); err != nil {
				t.Fatal(err)
			}
			if !tc.check(&got) {
				t.Errorf("decoded %#v", got)
			}
		})
	}
}

// TestMarshalWritesAsTheAPIServer: encoding/json's output, HTML characters
// as they are, U+2028 and U+2029 escaped, no newline at the end.
func TestMarshalWritesAsTheAPIServer(t *testing.T) {
	when := metav1.NewTime(time.Date(2024, 2, 3, 4, 5, 6, 0, time.UTC))
	o := object{ObjectMeta: metav1.ObjectMeta{CreationTimestamp: when}, Spec: spec{When: when, Name: "<a&b>\u2028", Labels: map[string]string{"b": "2", "a": "1"}, Tags: []string{}}}
	got, err := MarshalAppend(nil, &o)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"metadata":{"creationTimestamp":"2024-02-03T04:05:06Z"},"spec":{"name":"<a&b>\u2028","tags":[],"labels":{"a":"1","b":"2"},"raw":null,"port":0,"when":"2024-02-03T04:05:06Z","optional":null}}`
	if string(got) != want {
		t.Errorf("encoded\n%s\nwant\n%s", got, want)
	}
	var buf bytes.Buffer
	buf.WriteString("prefix")
	if err := MarshalWrite(&buf, make(chan int)); err == nil || buf.String() != "prefix" {
		t.Errorf("an error left %q, %v", buf.String(), err)
	}
}

// Errors agree with encoding/json's: what the API server refuses, the codec
// refuses.
func TestCodecRefusesWhatTheAPIServerRefuses(t *testing.T) {
	for _, in := range []string{
		`{"spec":{"count":"1"}}`, `{"spec":{"count":1.5}}`, `{"spec":{"count":9223372036854775808}}`,
		`{"spec":{"small":2147483648}}`, `{"spec":{"tags":"x"}}`, `{"spec":{"size":"1.5.5"}}`,
		`{"spec":{"when":"yesterday"}}`, `{"spec":[]}`, `{"spec":{"bytes":"!"}}`, `{"spec":{"free":{"big":1e400}}}`,
	} {
		var got object
		if err := Unmarshal([]byte(in), &got); err == nil {
			t.Errorf("%s: decoded without an error", in)
		}
	}
}

// Integers in interface values stay int64 only thanks to PreserveInts:
// encoding/json alone decodes them as float64, which loses 2^53+1.
func TestPreserveIntsIsWhatKeepsIntegers(t *testing.T) {
	var v, plain map[string]any
	if err := Unmarshal([]byte(`{"n":9007199254740993}`), &v); err != nil || v["n"] != int64(9007199254740993) {
		t.Fatalf("%#v, %v", v, err)
	}
	if err := stdjson.Unmarshal([]byte(`{"n":9007199254740993}`), &plain); err != nil || plain["n"] == int64(9007199254740993) {
		t.Fatalf("encoding/json: %#v, %v", plain, err)
	}
}
