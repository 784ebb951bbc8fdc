package convert_test

import (
	"reflect"
	"testing"

	"github.com/crdforge/crdforge/webhook/internal/codec"
	"github.com/crdforge/crdforge/webhook/internal/convert"
	"github.com/crdforge/crdforge/webhook/internal/testkit"
	"github.com/crdforge/crdforge/webhook/typedjson"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// decodeBoxV1 decodes a v1 Box as a generated decoder would, for the
// members these tests send, and declines anything else: managedFields
// among them, which the table leaves out of what a codec reads.
func decodeBoxV1(d *typedjson.Decoder, obj runtime.Object) error {
	b := obj.(*testkit.BoxV1)
	if err := d.Begin('{'); err != nil {
		return err
	}
	for d.More() {
		name, err := d.Name()
		if err != nil {
			return err
		}
		switch string(name) {
		case "apiVersion":
			err = typedjson.String(d, &b.APIVersion)
		case "kind":
			err = typedjson.String(d, &b.Kind)
		case "hostPort":
			err = typedjson.String(d, &b.HostPort)
		case "metadata":
			err = decodeMeta(d, &b.ObjectMeta)
		default:
			return typedjson.ErrFallback
		}
		if err != nil {
			return err
		}
	}
	return d.End()
}

func decodeMeta(d *typedjson.Decoder, m *metav1.ObjectMeta) error {
	if err := d.Begin('{'); err != nil {
		return err
	}
	for d.More() {
		name, err := d.Name()
		if err != nil {
			return err
		}
		switch string(name) {
		case "name":
			err = typedjson.String(d, &m.Name)
		case "namespace":
			err = typedjson.String(d, &m.Namespace)
		case "uid":
			err = typedjson.String(d, &m.UID)
		case "labels": // whole, as a generated decoder reads a value it does not specialise
			err = typedjson.Reflect(d, &m.Labels)
		case "annotations":
			err = typedjson.Map(d, &m.Annotations, typedjson.String[string])
		default:
			return typedjson.ErrFallback
		}
		if err != nil {
			return err
		}
	}
	return d.End()
}

// An object's generated codec reads it from the tokens the review's read
// recorded, managedFields left out wherever they are in the metadata: it
// decodes what the reflection codec decodes from the object without them,
// and the table answers what it answers by reflection.
func TestTableDecodesFromTheObjectsTape(t *testing.T) {
	var decoded []*testkit.BoxV1
	k := box()
	k.Codecs = map[string]convert.Codec{"v1": {Decode: func(d *typedjson.Decoder, obj runtime.Object) error {
		decoded = append(decoded, obj.(*testkit.BoxV1))
		return decodeBoxV1(d, obj)
	}}}
	generated, err := convert.NewTable(k)
	if err != nil {
		t.Fatal(err)
	}
	reflection, err := convert.NewTable(box())
	if err != nil {
		t.Fatal(err)
	}
	managed := `"managedFields":[{"manager":"m","fieldsV1":{"f:hostPort":{}},"time":"2030-01-02T03:04:05Z"}]`
	for _, meta := range []string{
		`{"name":"a",` + managed + `,"labels":{"x":"y"}}`,
		`{` + managed + `,"name":"a","annotations":{"k":"v \u00e9"}}`,
		`{"name":"a","labels":{},"namespace":"ns",` + managed + `}`,
		`{` + managed + `}`,
		`{"name":"a","uid":"u"}`,
	} {
		in := `{"apiVersion":"test.io/v1","kind":"Box","metadata":` + meta + `,"hostPort":"h:1"}`
		decoded = decoded[:0]
		got, err := generated.Convert(object(t, in), "test.io/v3")
		if err != nil {
			t.Fatalf("%s: %v", in, err)
		}
		want, err := reflection.Convert(object(t, in), "test.io/v3")
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != string(want) {
			t.Errorf("%s:\ngenerated  %s\nreflection %s", in, got, want)
		}
		var whole testkit.BoxV1
		if err := codec.Unmarshal(object(t, in).WithoutManagedFields(), &whole); err != nil {
			t.Fatal(err)
		}
		if len(decoded) != 1 || !reflect.DeepEqual(decoded[0], &whole) {
			t.Errorf("%s: the codec decoded %+v, want %+v", in, decoded, &whole)
		}
	}
}
