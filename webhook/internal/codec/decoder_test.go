package codec

import (
	"errors"
	"reflect"
	"testing"

	jsonv1 "github.com/go-json-experiment/json/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// leanObject is object without interface values (spec's free and any):
// its Decoder needs no preserveInts.
type leanObject struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              leanSpec `json:"spec"`
}

type leanSpec struct {
	Name     string               `json:"name,omitempty"`
	Count    int64                `json:"count,omitempty"`
	Small    *int32               `json:"small,omitempty"`
	Ratio    float64              `json:"ratio,omitempty"`
	On       *bool                `json:"on,omitempty"`
	Tags     []string             `json:"tags"`
	Labels   map[string]string    `json:"labels,omitempty"`
	Raw      runtime.RawExtension `json:"raw,omitempty"`
	Port     intstr.IntOrString   `json:"port,omitempty"`
	Size     *resource.Quantity   `json:"size,omitempty"`
	When     metav1.Time          `json:"when,omitempty"`
	Bytes    []byte               `json:"bytes,omitempty"`
	Items    []item               `json:"items,omitempty"`
	Ptr      *item                `json:"ptr,omitempty"`
	Optional *string              `json:"optional"`
}

type cyclic struct {
	Next  *cyclic          `json:"next"`
	Items []map[string]any `json:"items"`
}

type skipped struct {
	Hidden any `json:"-"`
	Name   string
}

func TestDecoderForLooksForInterfaceValues(t *testing.T) {
	for _, tc := range []struct {
		v    any
		want bool
	}{
		{new(object), true},
		{new(leanObject), false},
		{new(cyclic), true},
		{new(skipped), false},
		{new(map[string]any), true},
		{new([]any), true},
		// Its Object field is an interface, but UnmarshalJSON decodes it.
		{new(runtime.RawExtension), false},
		{new(metav1.ObjectMeta), false},
	} {
		if got := reachesInterface(reflect.TypeOf(tc.v), map[reflect.Type]bool{}); got != tc.want {
			t.Errorf("%T: reachesInterface = %v, want %v", tc.v, got, tc.want)
		}
	}
}

// A type with interface values keeps its integers: DecoderFor did not leave
// preserveInts out.
func TestDecoderForKeepsIntegersInInterfaceValues(t *testing.T) {
	var o object
	if err := DecoderFor(reflect.TypeOf(&o)).Unmarshal([]byte(`{"spec":{"any":9007199254740993}}`), &o); err != nil || o.Spec.Any != int64(9007199254740993) {
		t.Fatalf("%#v, %v", o.Spec.Any, err)
	}
}

// What fails to decode fails as with v1's error reporting: the Decoder
// decodes once more with it.
func TestDecoderReportsErrorsAsTheV1Codec(t *testing.T) {
	for _, dec := range []Decoder{DecoderFor(reflect.TypeFor[*leanObject]()), anyType} {
		var o leanObject
		err := dec.Unmarshal([]byte(`{"metadata":{"name":"a"},"spec":{"name":"n","count":"1"}}`), &o)
		var typeErr *jsonv1.UnmarshalTypeError
		if !errors.As(err, &typeErr) {
			t.Errorf("%v (%T), want a *json.UnmarshalTypeError as encoding/json reports", err, err)
		}
	}
}
