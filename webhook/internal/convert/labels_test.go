package convert_test

import (
	"testing"

	"github.com/crdforge/crdforge/webhook/internal/convert"
	"github.com/crdforge/crdforge/webhook/internal/testkit"
	"github.com/crdforge/crdforge/webhook/typedjson"
	"k8s.io/apimachinery/pkg/runtime"
)

// decodeBoxV1Labels is decodeBoxV1 reading of the metadata only labels and
// annotations, as a generated DecodeLabels does.
func decodeBoxV1Labels(d *typedjson.Decoder, obj runtime.Object) error {
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
			return typedjson.MetadataLabels(d, &b.ObjectMeta)
		}
		return typedjson.ErrFallback
	})
}

// An object is decoded with DecodeLabels only where both versions of its
// conversion have one, which says their conversions keep the metadata:
// then its metadata still goes out whole, as it came in, and labels and
// annotations as the conversion left them.
func TestTableDecodesLabelsOnlyWhereBothVersionsKeepMetadata(t *testing.T) {
	in := `{"apiVersion":"test.io/v1","kind":"Box","metadata":{"name":"a","namespace":"ns","uid":"u-a","generation":3,"labels":{"x":"y"},"annotations":{"k":"v"}},"hostPort":"h:1"}`
	reflection, err := convert.NewTable(box())
	if err != nil {
		t.Fatal(err)
	}
	want, err := reflection.Convert(object(t, in), "test.io/v3")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name       string
		v3Keeps    bool
		wantLabels int
	}{
		{"both keep metadata", true, 1},
		{"v3's conversions do not", false, 0},
	} {
		var full, labels int
		v1 := convert.Codec{
			Decode: func(d *typedjson.Decoder, obj runtime.Object) error { full++; return decodeBoxV1(d, obj) },
			DecodeLabels: func(d *typedjson.Decoder, obj runtime.Object) error {
				labels++
				err := decodeBoxV1Labels(d, obj)
				if m := obj.(*testkit.BoxV1).ObjectMeta; m.Labels["x"] != "y" || m.Annotations["k"] != "v" || m.Name != "" || m.Generation != 0 {
					t.Errorf("DecodeLabels decoded the metadata %+v, want its labels and annotations only", m)
				}
				return err
			},
		}
		v3 := convert.Codec{}
		if tc.v3Keeps {
			// Never called: v3 objects are only encoded here. Its presence
			// says v3's conversions keep metadata.
			v3.DecodeLabels = func(*typedjson.Decoder, runtime.Object) error { return typedjson.ErrFallback }
		}
		k := box()
		k.Codecs = map[string]convert.Codec{"v1": v1, "v3": v3}
		table, err := convert.NewTable(k)
		if err != nil {
			t.Fatal(err)
		}
		got, err := table.Convert(object(t, in), "test.io/v3")
		if err != nil || string(got) != string(want) {
			t.Errorf("%s: Convert = %s, %v\nwant %s", tc.name, got, err, want)
		}
		if labels != tc.wantLabels || full+labels != 1 {
			t.Errorf("%s: decoded %d times whole and %d times labels only, want labels only %d times of 1", tc.name, full, labels, tc.wantLabels)
		}
	}
}
