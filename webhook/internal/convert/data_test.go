package convert_test

import (
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/crdforge/crdforge/webhook/internal/convert"
	"github.com/crdforge/crdforge/webhook/internal/testkit"
	"github.com/crdforge/crdforge/webhook/typedjson"
)

// decodeBoxData decodes a Box as a generated DecodeData would, for the
// members these tests send: its type meta, of its metadata the stash only,
// and its string fields, by name; the member named pass, if any, it passes
// (typedjson.Pass).
func decodeBoxData(d *typedjson.Decoder, tm *metav1.TypeMeta, om *metav1.ObjectMeta, fields map[string]*string, pass string) error {
	return members(d, func(name string) error {
		switch name {
		case "apiVersion":
			return typedjson.String(d, &tm.APIVersion)
		case "kind":
			return typedjson.String(d, &tm.Kind)
		case "metadata":
			return typedjson.MetadataStash(d, om, stashPrefix)
		}
		if name == pass {
			return d.Pass(0)
		}
		if f, ok := fields[name]; ok {
			return typedjson.String(d, f)
		}
		return typedjson.ErrFallback
	})
}

// decodeBoxV1Data is decodeBoxV1 reading of the metadata only the stash.
func decodeBoxV1Data(d *typedjson.Decoder, obj runtime.Object) error {
	b := obj.(*testkit.BoxV1)
	return decodeBoxData(d, &b.TypeMeta, &b.ObjectMeta, map[string]*string{"hostPort": &b.HostPort}, "")
}

// decodeBoxV2Data is decodeBoxData of a v2 Box.
func decodeBoxV2Data(d *typedjson.Decoder, obj runtime.Object) error {
	b := obj.(*testkit.BoxV2)
	return decodeBoxData(d, &b.TypeMeta, &b.ObjectMeta, map[string]*string{"host": &b.Host, "port": &b.Port}, "")
}

// stashPrefix starts the annotations the Box codecs decode with the data.
const stashPrefix = "conversion.crdforge.io/"

// An object is decoded with DecodeData only where both versions of its
// conversion have one, which says their conversions keep the metadata:
// then its metadata still goes out whole, as it came in, and its stash as
// the conversion left it.
func TestTableDecodesDataOnlyWhereBothVersionsKeepMetadata(t *testing.T) {
	in := `{"apiVersion":"test.io/v1","kind":"Box","metadata":{"name":"a","namespace":"ns","uid":"u-a","generation":3,"labels":{"x":"y"},"annotations":{"k":"v","conversion.crdforge.io/v0":"s"}},"hostPort":"h:1"}`
	reflection, err := convert.NewTable(box())
	if err != nil {
		t.Fatal(err)
	}
	want, err := reflection.Convert(object(t, in), "test.io/v3")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name     string
		v3Keeps  bool
		wantData int
	}{
		{"both keep metadata", true, 1},
		{"v3's conversions do not", false, 0},
	} {
		var full, data int
		v1 := convert.Codec{
			Decode: func(d *typedjson.Decoder, obj runtime.Object) error { full++; return decodeBoxV1(d, obj) },
			DecodeData: func(d *typedjson.Decoder, obj runtime.Object) error {
				data++
				err := decodeBoxV1Data(d, obj)
				if m := obj.(*testkit.BoxV1).ObjectMeta; len(m.Annotations) != 1 || m.Annotations["conversion.crdforge.io/v0"] != "s" || m.Labels != nil || m.Name != "" || m.Generation != 0 {
					t.Errorf("DecodeData decoded the metadata %+v, want its stash only", m)
				}
				return err
			},
		}
		v3 := convert.Codec{}
		if tc.v3Keeps {
			// Never called: v3 objects are only encoded here. Its presence
			// says v3's conversions keep metadata.
			v3.DecodeData = func(*typedjson.Decoder, runtime.Object) error { return typedjson.ErrFallback }
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
		if data != tc.wantData || full+data != 1 {
			t.Errorf("%s: decoded %d times whole and %d times data only, want data only %d times of 1", tc.name, full, data, tc.wantData)
		}
	}
}

// Where both versions keep metadata, the objects a conversion decoded into
// and converted to serve the next object of the review, zeroed: each answer
// is still the reflection codec's for its own object alone.
func TestTableReusesObjectsOnlyZeroed(t *testing.T) {
	k := box()
	keep := func(*typedjson.Decoder, runtime.Object) error { return typedjson.ErrFallback }
	k.Codecs = map[string]convert.Codec{
		"v1": {DecodeData: keep},
		"v2": {Decode: decodeBoxV2Data, DecodeData: decodeBoxV2Data},
		"v3": {DecodeData: keep},
	}
	table, err := convert.NewTable(k)
	if err != nil {
		t.Fatal(err)
	}
	reflection, err := convert.NewTable(box())
	if err != nil {
		t.Fatal(err)
	}
	var s convert.Scratch
	for _, desired := range []string{"test.io/v3", "test.io/v1"} {
		for _, in := range []string{
			`{"apiVersion":"test.io/v2","kind":"Box","metadata":{"name":"a","annotations":{"conversion.crdforge.io/v9":"sparse:{}"}},"host":"h","port":"1"}`,
			`{"apiVersion":"test.io/v2","kind":"Box","metadata":{"name":"b","annotations":{"k":"v"}},"host":"h2"}`,
			`{"apiVersion":"test.io/v2","kind":"Box","metadata":{"name":"c"}}`,
		} {
			got, err := table.Append(nil, object(t, in), desired, &s)
			if err != nil {
				t.Fatal(err)
			}
			want, err := reflection.Convert(object(t, in), desired)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != string(want) {
				t.Errorf("%s to %s:\ngot  %s\nwant %s", in, desired, got, want)
			}
		}
	}
}
