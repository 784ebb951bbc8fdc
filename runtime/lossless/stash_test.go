package lossless

import (
	"encoding/json"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

type stashed struct {
	Only  string `json:"only,omitempty"`
	Count *int64 `json:"count"`
}

func TestStashAndUnstashRoundTrip(t *testing.T) {
	big := int64(1<<62 + 1) // survives JSON only as an int64, not as a float
	meta := metav1.ObjectMeta{Name: "x"}
	if err := stash(&meta, "v1alpha1", stashed{Only: "kept", Count: &big}); err != nil {
		t.Fatal(err)
	}
	if got := meta.Annotations["conversion.crdforge.io/v1alpha1"]; got != `{"only":"kept","count":4611686018427387905}` {
		t.Fatalf("annotation = %s", got)
	}
	var back stashed
	ok, err := unstash(&meta, "v1alpha1", &back)
	if err != nil || !ok {
		t.Fatalf("Unstash = %v, %v", ok, err)
	}
	if back.Only != "kept" || back.Count == nil || *back.Count != big {
		t.Errorf("restored %+v", back)
	}
	if meta.Annotations != nil {
		t.Errorf("annotations = %v, want nil once the stash is gone", meta.Annotations)
	}
}

func TestUnstashKeepsOtherAnnotations(t *testing.T) {
	meta := metav1.ObjectMeta{Annotations: map[string]string{"mine": "1", Annotation("v1"): `{}`}}
	if ok, err := unstash(&meta, "v1", nil); !ok || err != nil {
		t.Fatalf("Unstash = %v, %v", ok, err)
	}
	if len(meta.Annotations) != 1 || meta.Annotations["mine"] != "1" {
		t.Errorf("annotations = %v", meta.Annotations)
	}
	if ok, _ := unstash(&meta, "v2", nil); ok {
		t.Error("Unstash found an annotation that is not there")
	}
}

func TestUnstashReportsBadData(t *testing.T) {
	meta := metav1.ObjectMeta{Annotations: map[string]string{Annotation("v1"): `{"only":`}}
	var into stashed
	if _, err := unstash(&meta, "v1", &into); err == nil {
		t.Error("corrupt stash decoded without error")
	}
}

func TestLargeStashesAreCompressed(t *testing.T) {
	big := stashed{Only: strings.Repeat("container image and args ", 400)}
	meta := metav1.ObjectMeta{}
	if err := stash(&meta, "v2", big); err != nil {
		t.Fatal(err)
	}
	value := meta.Annotations[Annotation("v2")]
	raw, _ := json.Marshal(big)
	if !strings.HasPrefix(value, "gzip:") || len(value) >= len(raw)/4 {
		t.Fatalf("a %d-byte stash was stored as %d bytes (%.20s...)", len(raw), len(value), value)
	}
	var back stashed
	if _, err := unstash(&meta, "v2", &back); err != nil || back.Only != big.Only {
		t.Fatalf("compressed stash did not come back: %v", err)
	}
}
