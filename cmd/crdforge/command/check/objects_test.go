package check

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"

	"github.com/crdforge/crdforge/internal/objectcheck"
)

// gaugeCRD is a CRD of one version whose spec.level is at most maximum.
func gaugeCRD(t *testing.T, maximum string, served bool) *apiextensionsv1.CustomResourceDefinition {
	t.Helper()
	var c apiextensionsv1.CustomResourceDefinition
	err := json.Unmarshal([]byte(`{"metadata":{"name":"gauges.g.example.com"},"spec":{"group":"g.example.com","scope":"Namespaced",
"names":{"kind":"Gauge","plural":"gauges"},"versions":[{"name":"v1","served":`+map[bool]string{true: "true", false: "false"}[served]+`,"storage":true,"schema":{"openAPIV3Schema":
{"type":"object","properties":{"spec":{"type":"object","properties":{"level":{"type":"integer","maximum":`+maximum+`}}}}}}}]}}`), &c)
	if err != nil {
		t.Fatal(err)
	}
	return &c
}

func gaugeSchema(t *testing.T, maximum string) *objectcheck.Schema {
	t.Helper()
	s, err := objectcheck.NewSchema(gaugeCRD(t, maximum, true), "v1")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// A stored object is refused at a field the new schema refuses and the
// old one accepts; one the old schema already refused (kept by the
// server's ratcheting) is not reported, nor is a valid one.
func TestRefusedIsWhatTheNewSchemaAloneRefuses(t *testing.T) {
	was, is := gaugeSchema(t, "20"), gaugeSchema(t, "10")
	for _, tt := range []struct {
		level int64
		want  []string
	}{
		{5, nil},
		{15, []string{"spec.level: Invalid value: 15: spec.level in body should be less than or equal to 10"}},
		{25, nil}, // over the old maximum too: no worse now
	} {
		obj := map[string]any{"apiVersion": "g.example.com/v1", "kind": "Gauge", "metadata": map[string]any{"name": "g", "namespace": "default"},
			"spec": map[string]any{"level": tt.level}}
		var got []string
		for _, e := range refused(was, is, obj) {
			got = append(got, e.Error())
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("level %d: refused %q, want %q", tt.level, got, tt.want)
		}
	}
}

// Only a version both CRDs serve, with a schema the new one changes, has
// stored objects to read; an unchanged schema cannot refuse one now.
func TestChangedVersionsAreTheServedOnesWithANewSchema(t *testing.T) {
	for _, tt := range []struct {
		name string
		nw   *apiextensionsv1.CustomResourceDefinition
		want string
	}{
		{"unchanged", gaugeCRD(t, "20", true), ""},
		{"narrowed", gaugeCRD(t, "10", true), "v1"},
		{"no longer served", gaugeCRD(t, "10", false), ""},
	} {
		if got := strings.Join(changedVersions(gaugeCRD(t, "20", true), tt.nw), ","); got != tt.want {
			t.Errorf("%s: changed versions %q, want %q", tt.name, got, tt.want)
		}
	}
}

// The refused objects are a part of every report: in text, as
// namespace/name: field: reason under their CRD and version, with the
// count in the summary; in JSON, with their CRD, version, namespace, name,
// field and reason; and they make the result an error.
func TestRefusedObjectsAreReported(t *testing.T) {
	r := &Result{Objects: &Objects{Checked: 3, Refused: []RefusedObject{
		{CRD: "gauges.g.example.com", Version: "v1", Namespace: "default", Name: "high", Field: "spec.level", Message: "Invalid value: 15: too high"},
	}}}
	if !r.HasErrors() {
		t.Error("a refused object is no error")
	}
	var text, js strings.Builder
	if err := Write(&text, "text", r, "", "the cluster"); err != nil {
		t.Fatal(err)
	}
	want := "stored objects of gauges.g.example.com v1 the new schema refuses:\n  default/high: spec.level: Invalid value: 15: too high\n" +
		"crdforge check against the cluster: 0 breaking (error), 0 warning(s), 0 informational; 1 of 3 stored object(s) refused\n"
	if text.String() != want {
		t.Errorf("text\n%s\nwant\n%s", text.String(), want)
	}
	if err := Write(&js, "json", r, "", "the cluster"); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(js.String(), `"refused": [
      {
        "crd": "gauges.g.example.com",
        "version": "v1",
        "namespace": "default",
        "name": "high",
        "field": "spec.level",
        "message": "Invalid value: 15: too high"`) {
		t.Errorf("json\n%s", js.String())
	}
}
