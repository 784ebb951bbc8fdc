package lossless

import (
	"encoding/json"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/conversion"
)

// noteSpoke's note is omitzero, and only an embedded pointer to a struct
// whose one field is an omitempty map can make it non-zero: "note": {} then
// says it is, though JSON shows no member. noteHub writes its note always.
type noteSpoke struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Note              spokeNote `json:"note,omitzero"`
}

type spokeNote struct {
	*NoteOwner `json:",inline"`
}

type NoteOwner struct {
	Owner map[string]string `json:"owner,omitempty"`
}

type noteHub struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Note              hubNote `json:"note"`
}

type hubNote struct {
	*NoteOwner `json:",inline"`
}

func noteToHub(in *noteSpoke, out *noteHub, _ conversion.Scope) error {
	out.ObjectMeta, out.Note.NoteOwner = in.ObjectMeta, in.Note.NoteOwner
	return nil
}

func noteFromHub(in *noteHub, out *noteSpoke, _ conversion.Scope) error {
	out.ObjectMeta, out.Note.NoteOwner = in.ObjectMeta, in.Note.NoteOwner
	return nil
}

// TestAnEmbeddedPointerThatMakesAnOmitzeroStructNonZeroComesBack: the
// embedded pointer shows nothing in JSON, so it is not stashed for itself
// (TestNoStashWhereJSONCannotTellAnEmbeddedPointerFromNil), but here it is
// what makes the omitzero note non-zero, which the spoke's JSON shows:
// "note": {} must come back through the hub's JSON (apigen seed 681510097).
func TestAnEmbeddedPointerThatMakesAnOmitzeroStructNonZeroComesBack(t *testing.T) {
	there, back := Lossless("v2", "v1", noteToHub), Lossless("v1", "v2", noteFromHub)
	var src noteSpoke
	if err := json.Unmarshal([]byte(`{"note":{"owner":{}}}`), &src); err != nil {
		t.Fatal(err)
	}
	want := jsonOf(t, &src)
	h := convert[noteSpoke, noteHub](t, &src, there, back)
	got := convert[noteHub, noteSpoke](t, throughJSON(t, h), back, there)
	if jsonOf(t, got) != want {
		t.Errorf("back as %s, want %s; through the hub's JSON %s", jsonOf(t, got), want, jsonOf(t, h))
	}
}
