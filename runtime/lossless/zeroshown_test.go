package lossless

import (
	"encoding/json"
	"testing"

	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/conversion"
)

// zeroOld's structs are omitzero, zeroHub's are not, and zeroHub hides
// nothing in JSON (jsonhides.go): apigen seeds 477373812 (a zero Quantity,
// which JSON writes "0") and 477374021 (an empty list, which omitempty
// leaves out) in small.
type zeroOld struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              struct {
		Volume zeroVolume `json:"volume,omitzero"`
		Memory zeroMemory `json:"memory,omitzero"`
	} `json:"spec"`
}

type zeroHub struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              struct {
		Volume zeroVolume `json:"volume"`
		Memory zeroMemory `json:"memory"`
	} `json:"spec"`
}

type zeroVolume struct {
	Count resource.Quantity `json:"count,omitempty"`
}

type zeroMemory struct {
	Tags []string `json:"tags,omitempty"`
}

func zeroToHub(in *zeroOld, out *zeroHub, _ conversion.Scope) error {
	out.ObjectMeta = in.ObjectMeta
	out.Spec.Volume, out.Spec.Memory = in.Spec.Volume, in.Spec.Memory
	return nil
}

func zeroFromHub(in *zeroHub, out *zeroOld, _ conversion.Scope) error {
	out.ObjectMeta = in.ObjectMeta
	out.Spec.Volume, out.Spec.Memory = in.Spec.Volume, in.Spec.Memory
	return nil
}

// limitOld's and limitHub's omitzero struct is non-zero by a Quantity of
// "0" behind an omitzero, which JSON leaves out (apigen seed 477373870).
type limitOld struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              struct {
		Limit zeroLimit `json:"limit,omitzero"`
	} `json:"spec"`
}

type limitHub limitOld

type zeroLimit struct {
	Until resource.Quantity `json:"until,omitzero"`
}

func limitToHub(in *limitOld, out *limitHub, _ conversion.Scope) error {
	*out = limitHub(*in)
	return nil
}

func limitFromHub(in *limitHub, out *limitOld, _ conversion.Scope) error {
	*out = limitOld(*in)
	return nil
}

// roundTripsAsWritten converts an S read from each spec in JSON to D, reads
// that back from its JSON, converts it back, and fails where the spec JSON
// of the S it read differs from that of the S that comes back. (Not read
// back once more: JSON alone does not give {"tags":[]} twice.)
func roundTripsAsWritten[S, D any, PS Object[S], PD Object[D]](t *testing.T, there Direction[S, D], back Direction[D, S], spec func(PS) any, specs ...string) {
	t.Helper()
	for _, s := range specs {
		old := PS(new(S))
		if err := json.Unmarshal([]byte(`{"spec":`+s+`}`), old); err != nil {
			t.Fatal(err)
		}
		want := jsonOf(t, spec(old))
		dst := throughJSON(t, (*D)(convert[S, D, PS, PD](t, old, there, back)))
		again := convert[D, S, PD, PS](t, PD(dst), back, there)
		if got := jsonOf(t, spec(PS(again))); got != want {
			t.Errorf("spec %s back as %s, want %s (stash %q)", s, got, want, PD(dst).GetAnnotations()[Annotation(there.from)])
		}
	}
}

// An omitzero struct comes back as the client wrote it, through a version
// whose JSON does not keep its zero-ness: left out, it is not made "{...}"
// by the "0" the other version writes for a zero Quantity; written as "{}"
// (non-zero by an empty list or a Quantity of "0" that JSON leaves out),
// it is not left out.
func TestAZeroStructJSONShowsComesBackAsWritten(t *testing.T) {
	roundTripsAsWritten[zeroOld, zeroHub](t, Lossless("v1beta1", "v1", zeroToHub), Lossless("v1", "v1beta1", zeroFromHub),
		func(o *zeroOld) any { return o.Spec },
		`{}`, `{"volume":{}}`, `{"volume":{"count":"1"}}`, `{"memory":{"tags":[]}}`, `{"memory":{"tags":["a"]}}`)
	roundTripsAsWritten[limitOld, limitHub](t, Lossless("v1beta1", "v1", limitToHub), Lossless("v1", "v1beta1", limitFromHub),
		func(o *limitOld) any { return o.Spec },
		`{}`, `{"limit":{}}`, `{"limit":{"until":"0"}}`, `{"limit":{"until":"1"}}`)
}

// A struct whose JSON is the same either way needs no stash.
func TestAStructJSONShowsTheSameIsNotStashed(t *testing.T) {
	var old zeroOld
	if err := json.Unmarshal([]byte(`{"spec":{"volume":{"count":"1"},"memory":{"tags":["a"]}}}`), &old); err != nil {
		t.Fatal(err)
	}
	if hub := convert[zeroOld, zeroHub](t, &old, Lossless("v1beta1", "v1", zeroToHub), Lossless("v1", "v1beta1", zeroFromHub)); len(hub.Annotations) > 0 {
		t.Errorf("stash %v, want none", hub.Annotations)
	}
}

func quantityHubCopy(in *quantityHub, out *quantityHub, _ conversion.Scope) error {
	*out = *in
	return nil
}

// A value JSON leaves out on both sides (an omitzero Quantity of "0" in
// either version) is no loss: nobody can read it back, so nothing is
// stashed (apigen seed 290104160).
func TestAZeroBothSidesLeaveOutIsNotStashed(t *testing.T) {
	there := Lossless("v1beta1", "v1", quantityHubCopy)
	back := Lossless("v1", "v1beta1", quantityHubCopy)
	var src quantityHub
	if err := json.Unmarshal([]byte(`{"spec":{"ports":0}}`), &src); err != nil {
		t.Fatal(err)
	}
	if dst := convert[quantityHub, quantityHub](t, &src, there, back); len(dst.Annotations) > 0 {
		t.Errorf("stash %v, want none", dst.Annotations)
	}
}

// ptrOld holds an omitzero struct behind a pointer, in a list and in a map,
// non-zero by a list only it holds, which omitempty leaves out of JSON;
// ptrHub holds the same pointer, list and map of a struct without it
// (apigen seed 290104233: a spoke-only map in an omitzero struct behind a
// pointer to a struct).
type ptrOld struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              struct {
		Old  *ptrVolume           `json:"old,omitempty"`
		List []ptrVolume          `json:"list,omitempty"`
		Map  map[string]ptrVolume `json:"map,omitempty"`
	} `json:"spec"`
}

type ptrVolume struct {
	Labels zeroMemory `json:"labels,omitzero"`
	Size   string     `json:"size,omitempty"`
}

type ptrHub struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              struct {
		Old  *ptrHubVolume           `json:"old,omitempty"`
		List []ptrHubVolume          `json:"list,omitempty"`
		Map  map[string]ptrHubVolume `json:"map,omitempty"`
	} `json:"spec"`
}

type ptrHubVolume struct {
	Size string `json:"size,omitempty"`
}

func ptrToHub(in *ptrOld, out *ptrHub, _ conversion.Scope) error {
	out.ObjectMeta = in.ObjectMeta
	if in.Spec.Old != nil {
		out.Spec.Old = &ptrHubVolume{Size: in.Spec.Old.Size}
	}
	for _, v := range in.Spec.List {
		out.Spec.List = append(out.Spec.List, ptrHubVolume{Size: v.Size})
	}
	for k, v := range in.Spec.Map {
		if out.Spec.Map == nil {
			out.Spec.Map = map[string]ptrHubVolume{}
		}
		out.Spec.Map[k] = ptrHubVolume{Size: v.Size}
	}
	return nil
}

func ptrFromHub(in *ptrHub, out *ptrOld, _ conversion.Scope) error {
	out.ObjectMeta = in.ObjectMeta
	if in.Spec.Old != nil {
		out.Spec.Old = &ptrVolume{Size: in.Spec.Old.Size}
	}
	for _, v := range in.Spec.List {
		out.Spec.List = append(out.Spec.List, ptrVolume{Size: v.Size})
	}
	for k, v := range in.Spec.Map {
		if out.Spec.Map == nil {
			out.Spec.Map = map[string]ptrVolume{}
		}
		out.Spec.Map[k] = ptrVolume{Size: v.Size}
	}
	return nil
}

// A value stored whole (a pointer, a list, a map) keeps the zero-ness of
// the omitzero structs it holds: one written as "{}", non-zero by an empty
// list only this version has, is not left out after a trip through the
// hub.
func TestAZeroStructJSONShowsInAStoredValueComesBackAsWritten(t *testing.T) {
	roundTripsAsWritten[ptrOld, ptrHub](t, Lossless("v1beta1", "v1", ptrToHub), Lossless("v1", "v1beta1", ptrFromHub),
		func(o *ptrOld) any { return o.Spec },
		`{"old":{"labels":{"tags":[]}}}`, `{"old":{"labels":{"tags":[]},"size":"1"}}`, `{"old":{"labels":{"tags":["a"]}}}`,
		`{"list":[{"labels":{"tags":[]}},{}]}`, `{"map":{"a":{"labels":{"tags":[]}},"b":{"size":"2"}}}`)
}
