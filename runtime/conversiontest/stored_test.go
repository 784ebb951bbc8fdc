package conversiontest

import (
	"encoding/json"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

type StoredImage struct {
	Image []metav1.MicroTime `json:"image"`
	Note  *string            `json:"note,omitempty"`
}

type storedSpec struct {
	*StoredImage `json:",inline"`
}

// storedObject holds a member promoted through an embedded pointer.
type storedObject struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              storedSpec `json:"spec"`
}

func (o *storedObject) DeepCopyObject() runtime.Object { c := *o; return &c }

// TestJSONCopyIsAsStored: a round trip through JSON starts from the object
// as the API server stores it, which prunes "image": null (seed 24 of the
// random APIs): the embedded pointer only that null reached is nil there.
func TestJSONCopyIsAsStored(t *testing.T) {
	from := &storedObject{Spec: storedSpec{StoredImage: &StoredImage{}}}
	to := &storedObject{}
	if err := jsonCopy(from, to); err != nil {
		t.Fatal(err)
	}
	if to.Spec.StoredImage != nil {
		b, _ := json.Marshal(to)
		t.Errorf("the embedded pointer, which only \"image\": null reached, reads back set:\n%s", b)
	}
}

type SentPhase struct {
	Phase SentLimits `json:"phase,omitzero"`
}

type SentLimits struct {
	Limits map[string]string `json:"limits,omitempty"`
}

type sentSpec struct {
	*SentPhase `json:",inline"`
}

// sentObject holds an omitzero struct promoted through an embedded pointer.
type sentObject struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              sentSpec `json:"spec"`
}

func (o *sentObject) DeepCopyObject() runtime.Object { c := *o; return &c }

// TestSentCopyIsWhatAClientCanSend: a round trip through JSON starts from an
// object a client can send. An empty map makes the omitzero phase non-zero,
// written {}; read back it is zero, and its embedded pointer then shows
// nothing: it must start nil, or the conversions' JSON of it (a version
// whose phase JSON always writes) is stashed in an annotation no original
// a client sends gets (apigen seed 681509573).
func TestSentCopyIsWhatAClientCanSend(t *testing.T) {
	from := &sentObject{Spec: sentSpec{SentPhase: &SentPhase{Phase: SentLimits{Limits: map[string]string{}}}}}
	to := &sentObject{}
	if err := sentCopy(from, to); err != nil {
		t.Fatal(err)
	}
	if to.Spec.SentPhase != nil {
		b, _ := json.Marshal(to)
		t.Errorf("the embedded pointer, whose phase reads back zero, is set:\n%s", b)
	}
}
