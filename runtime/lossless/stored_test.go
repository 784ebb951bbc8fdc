package lossless

import (
	"encoding/json"
	"reflect"
	"testing"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/conversion"
)

type StoredImage struct {
	Image []metav1.MicroTime `json:"image"`
	Note  *string            `json:"note,omitempty"`
}

type storedSpec struct {
	*StoredImage `json:",inline"`
	Parts        map[string][]string             `json:"parts,omitempty"`
	Items        []StoredImage                   `json:"items,omitempty"`
	Free         apiextensionsv1.JSON            `json:"free,omitempty"`
	Raws         map[string]apiextensionsv1.JSON `json:"raws,omitempty"`
}

// storedObject is a root type with the shapes storedJSON tells apart.
type storedObject struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              storedSpec `json:"spec"`
}

// TestStoredJSONDropsNullMembers: the JSON a round trip starts from is the
// object as the API server stores it, which prunes the nulls of members
// that are not nullable (seed 24 of the random APIs: "image": null
// allocated the embedded pointer it is promoted through, which the stored
// object does not have). A map's null values go too; nulls inside
// free-form JSON, which has no schema, and of members the type does not
// know stay.
func TestStoredJSONDropsNullMembers(t *testing.T) {
	in := `{"metadata":{"creationTimestamp":null},"spec":{"image":null,` +
		`"parts":{"a":null,"b":["x"]},"items":[{"image":null}],` +
		`"free":{"k":null,"l":[null]},"raws":{"m":null,"n":{"k":null}},"unknown":null}}`
	want := `{"metadata":{},"spec":{"free":{"k":null,"l":[null]},` +
		`"items":[{}],"parts":{"b":["x"]},"raws":{"n":{"k":null}},"unknown":null}}`
	got, err := StoredJSON([]byte(in), reflect.TypeOf(&storedObject{}))
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != want {
		t.Errorf("stored as\n%s\nwant\n%s", got, want)
	}

}

// imgHub and imgOld embed a pointer inline whose Image JSON always writes,
// null when nil; only the hub's holds Extra (apigen seed 24).
type imgHub struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              struct {
		*ImgHubExtra `json:",inline"`
	} `json:"spec"`
}

type ImgHubExtra struct {
	Image []string `json:"image"`
	Extra *int64   `json:"extra,omitempty"`
}

type imgOld struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              struct {
		*ImgOldExtra `json:",inline"`
	} `json:"spec"`
}

type ImgOldExtra struct {
	Image []string `json:"image"`
}

func imgFromHub(in *imgHub, out *imgOld, _ conversion.Scope) error {
	out.ObjectMeta = in.ObjectMeta
	out.Spec.ImgOldExtra = nil
	if in.Spec.ImgHubExtra != nil {
		out.Spec.ImgOldExtra = &ImgOldExtra{Image: in.Spec.Image}
	}
	return nil
}

func imgToHub(in *imgOld, out *imgHub, _ conversion.Scope) error {
	out.ObjectMeta = in.ObjectMeta
	out.Spec.ImgHubExtra = nil
	if in.Spec.ImgOldExtra != nil {
		out.Spec.ImgHubExtra = &ImgHubExtra{Image: in.Spec.Image}
	}
	return nil
}

var (
	imgFromHubDir = Checked("v1", "v1alpha1", imgFromHub, func(in *imgHub) bool {
		return in.Spec.ImgHubExtra != nil && in.Spec.Extra != nil
	})
	imgToHubDir = Lossless("v1alpha1", "v1", imgToHub)
)

// asStored returns obj as the API server stores it and hands it back.
func asStored[T any](t *testing.T, obj *T) *T {
	t.Helper()
	data, err := StoredJSON([]byte(jsonOf(t, obj)), reflect.TypeOf(obj))
	if err != nil {
		t.Fatal(err)
	}
	read := new(T)
	if err := json.Unmarshal(data, read); err != nil {
		t.Fatal(err)
	}
	return read
}

// The API server drops "image": null, so the old version in between comes
// back with its embedded pointer nil. That is no edit: the hub's Extra,
// stashed behind that pointer, comes back. The stash compares JSON images
// as stored, where the old version's pointer is nil either way.
func TestAFieldBehindAnEmbeddedPointerOnlyANullHeldComesBack(t *testing.T) {
	var hub imgHub
	if err := json.Unmarshal([]byte(`{"spec":{"image":null,"extra":7}}`), &hub); err != nil {
		t.Fatal(err)
	}
	old := convert[imgHub, imgOld](t, &hub, imgFromHubDir, imgToHubDir)
	back := convert[imgOld, imgHub](t, asStored(t, old), imgToHubDir, imgFromHubDir)
	if back.Spec.ImgHubExtra == nil || back.Spec.Extra == nil || *back.Spec.Extra != 7 {
		t.Errorf("hub back as %s, want extra 7; the old version was %s", jsonOf(t, back.Spec), jsonOf(t, old))
	}
}
