package convert_test

import (
	"reflect"
	"testing"

	"k8s.io/apimachinery/pkg/runtime"

	"github.com/crdforge/crdforge/webhook/internal/codec"
	"github.com/crdforge/crdforge/webhook/internal/convert"
	"github.com/crdforge/crdforge/webhook/internal/testkit"
	"github.com/crdforge/crdforge/webhook/typedjson"
)

// decodeBoxV1 decodes a v1 Box as a generated decoder would, for the
// members these tests send, and declines anything else: managedFields
// among them, which the table leaves out of what a codec reads.
func decodeBoxV1(d *typedjson.Decoder, obj runtime.Object) error {
	b := obj.(*testkit.BoxV1)
	return members(d, func(name string) error {
		switch name {
		case "apiVersion":
			return typedjson.String(d, &b.APIVersion)
		case "kind":
			return typedjson.String(d, &b.Kind)
		case "hostPort":
			return typedjson.String(d, &b.HostPort)
		case "metadata":
			return members(d, func(name string) error {
				switch name {
				case "name":
					return typedjson.String(d, &b.Name)
				case "namespace":
					return typedjson.String(d, &b.Namespace)
				case "uid":
					return typedjson.String(d, &b.UID)
				case "labels": // whole, as a generated decoder reads a value it does not specialise
					return typedjson.Reflect(d, &b.Labels)
				case "annotations":
					return typedjson.StringMap(d, &b.Annotations)
				}
				return typedjson.ErrFallback
			})
		}
		return typedjson.ErrFallback
	})
}

// members reads an object, each member's value with member.
func members(d *typedjson.Decoder, member func(name string) error) error {
	if err := d.Begin('{'); err != nil {
		return err
	}
	for d.More() {
		name, err := d.Name()
		if err != nil {
			return err
		}
		if err := member(string(name)); err != nil {
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
