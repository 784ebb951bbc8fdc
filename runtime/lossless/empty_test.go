package lossless

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/conversion"
)

// Issue 58, items 7 and 9: empty, non-nil values and JSON values spelled
// two ways, through the stash.

// emptySpoke has fields its hub lacks: a map and a list whose empty,
// non-nil values JSON writes ({} and []), and one whose it omits.
type emptySpoke struct {
	metav1.TypeMeta
	metav1.ObjectMeta
	Name    string                `json:"name"`
	Tags    map[string]string     `json:"tags,omitzero"`
	List    []string              `json:"list"`
	Omitted []string              `json:"omitted,omitempty"`
	Parts   map[string]*spokePart `json:"parts,omitempty"`
	Items   []jsonItem            `json:"items,omitempty"`
}

// emptyHub lacks the spoke's Tags, List and Omitted, and its parts have D,
// which the spoke's lack; its items have Note, which the spoke's lack.
type emptyHub struct {
	metav1.TypeMeta
	metav1.ObjectMeta
	Name  string              `json:"name"`
	Parts map[string]*hubPart `json:"parts,omitempty"`
	Items []hubJSONItem       `json:"items,omitempty"`
}

type spokePart struct {
	N string `json:"n"`
}

type hubPart struct {
	N string   `json:"n"`
	D []string `json:"d"`
}

type jsonItem struct {
	V *apiextensionsv1.JSON `json:"v,omitempty"`
}

type hubJSONItem struct {
	V    *apiextensionsv1.JSON `json:"v,omitempty"`
	Note string                `json:"note,omitempty"`
}

func emptySpokeToHub(in *emptySpoke, out *emptyHub, _ conversion.Scope) error {
	out.ObjectMeta = in.ObjectMeta
	out.Name = in.Name
	out.Parts = nil
	if in.Parts != nil {
		out.Parts = make(map[string]*hubPart, len(in.Parts))
		for k, v := range in.Parts {
			out.Parts[k] = nil
			if v != nil {
				out.Parts[k] = &hubPart{N: v.N}
			}
		}
	}
	out.Items = nil
	if in.Items != nil {
		out.Items = make([]hubJSONItem, len(in.Items))
		for i, it := range in.Items {
			out.Items[i] = hubJSONItem{V: it.V}
		}
	}
	return nil
}

func emptyHubToSpoke(in *emptyHub, out *emptySpoke, _ conversion.Scope) error {
	out.ObjectMeta = in.ObjectMeta
	out.Name = in.Name
	out.Parts = nil
	if in.Parts != nil {
		out.Parts = make(map[string]*spokePart, len(in.Parts))
		for k, v := range in.Parts {
			out.Parts[k] = nil
			if v != nil {
				out.Parts[k] = &spokePart{N: v.N}
			}
		}
	}
	out.Items = nil
	if in.Items != nil {
		out.Items = make([]jsonItem, len(in.Items))
		for i, it := range in.Items {
			out.Items[i] = jsonItem{V: it.V}
		}
	}
	return nil
}

// Both directions are round trips: what the stash keeps is then up to the
// sparse diff alone, which is what these tests are about.
var (
	emptyToHub   = RoundTrip("v1alpha1", "v1", emptySpokeToHub)
	emptyFromHub = RoundTrip("v1", "v1alpha1", emptyHubToSpoke)
)

func emptySpokeHubSpoke(t *testing.T, src *emptySpoke) *emptySpoke {
	t.Helper()
	var h emptyHub
	if err := Convert(src, &h, emptyToHub, emptyFromHub); err != nil {
		t.Fatal(err)
	}
	var back emptySpoke
	if err := Convert(&h, &back, emptyFromHub, emptyToHub); err != nil {
		t.Fatal(err)
	}
	return &back
}

// TestTheStashKeepsEmptyNonNilValues: {} and [] of fields the hub lacks
// are values the client wrote, which the JSON of the spoke shows; they
// must come back as they were, not as absent (nil).
func TestTheStashKeepsEmptyNonNilValues(t *testing.T) {
	back := emptySpokeHubSpoke(t, &emptySpoke{Name: "n", Tags: map[string]string{}, List: []string{}})
	if back.Tags == nil {
		t.Error("tags: {} came back absent")
	}
	if back.List == nil {
		t.Error("list: [] came back null")
	}
}

// TestTheStashLeavesOutWhatJSONOmits: an empty value of an omitempty field
// is absent in JSON, as nil is: there is nothing to stash.
func TestTheStashLeavesOutWhatJSONOmits(t *testing.T) {
	var h emptyHub
	if err := Convert(&emptySpoke{Name: "n", Omitted: []string{}}, &h, emptyToHub, emptyFromHub); err != nil {
		t.Fatal(err)
	}
	if h.Annotations != nil {
		t.Errorf("annotations = %v, want none: omitted: [] is not in the spoke's JSON", h.Annotations)
	}
}

// TestTheStashKeepsEmptyValuesInsideALeaf: a list inside a map's value,
// which the stash stores whole, keeps [] as [], not null.
func TestTheStashKeepsEmptyValuesInsideALeaf(t *testing.T) {
	src := &emptyHub{Name: "n", Parts: map[string]*hubPart{"a": {N: "x", D: []string{}}}}
	var s emptySpoke
	if err := Convert(src, &s, emptyFromHub, emptyToHub); err != nil {
		t.Fatal(err)
	}
	var back emptyHub
	if err := Convert(&s, &back, emptyToHub, emptyFromHub); err != nil {
		t.Fatal(err)
	}
	if p := back.Parts["a"]; p == nil || p.D == nil {
		t.Errorf("parts.a = %+v, want d: [] back (stash %q)", p, s.Annotations[Annotation("v1")])
	}
}

// TestAnEscapedJSONStringIsTheSameValue: a list element's JSON value that
// the other version's object brings back spelled otherwise ("V" for
// "\u0056", as the API server writes it after decoding) is unchanged, so
// the element's field only the hub has is restored.
func TestAnEscapedJSONStringIsTheSameValue(t *testing.T) {
	for _, raw := range []string{`"\u0056"`, `{"a":"\u003c"}`} {
		src := &emptyHub{Name: "n", Items: []hubJSONItem{{V: &apiextensionsv1.JSON{Raw: []byte(raw)}, Note: "kept"}}}
		var s emptySpoke
		if err := Convert(src, &s, emptyFromHub, emptyToHub); err != nil {
			t.Fatal(err)
		}
		// The spoke as the API server hands it back: decoded and encoded.
		for i, it := range s.Items {
			var v any
			if err := json.Unmarshal(it.V.Raw, &v); err != nil {
				t.Fatal(err)
			}
			s.Items[i].V = &apiextensionsv1.JSON{Raw: mustJSON(t, v)}
		}
		var back emptyHub
		if err := Convert(&s, &back, emptyToHub, emptyFromHub); err != nil {
			t.Fatal(err)
		}
		if len(back.Items) != 1 || back.Items[0].Note != "kept" {
			t.Errorf("%s: items = %+v, want the note kept", raw, back.Items)
		}
	}
}

// TestSemanticEqualReadsJSONValues: raw JSON of apiextensions' JSON and
// of RawExtension is equal when the values are, however spelled.
func TestSemanticEqualReadsJSONValues(t *testing.T) {
	cases := []struct {
		a, b string
		want bool
	}{
		{`"\u0056"`, `"V"`, true},
		{`{"a": 1, "b":[true]}`, `{"b":[true],"a":1}`, true},
		{`"V"`, `"W"`, false},
		{`1`, `"1"`, false},
		{`{"a":1}`, `{"a":1,"a":2}`, false},
	}
	for _, c := range cases {
		a, b := &apiextensionsv1.JSON{Raw: []byte(c.a)}, &apiextensionsv1.JSON{Raw: []byte(c.b)}
		if got := semanticEqual(reflect.ValueOf(a).Elem(), reflect.ValueOf(b).Elem()); got != c.want {
			t.Errorf("JSON %s and %s: equal = %v, want %v", c.a, c.b, got, c.want)
		}
		if got := SemanticEqual(&[]*apiextensionsv1.JSON{a}, &[]*apiextensionsv1.JSON{b}); got != c.want {
			t.Errorf("[]*JSON %s and %s: equal = %v, want %v", c.a, c.b, got, c.want)
		}
	}
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := jsonMarshalNoEscape(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// jsonMarshalNoEscape writes v as JSON without escaping HTML characters,
// so that "<" comes out spelled otherwise than "\u003c".
func jsonMarshalNoEscape(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}
