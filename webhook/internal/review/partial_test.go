package review

import (
	"encoding/json"
	"testing"
)

// Server-side apply converts partial objects: apply configurations and
// managed field sets, with some fields only, and at times no metadata
// (kubernetes/kubernetes#117356, #117260). Each converts; each converted
// object carries metadata, which the API server requires of a response
// ("missing metadata in converted object") before it restores the
// original's, and carries the metadata that came in as it came.
func TestHandlerConvertsPartialObjects(t *testing.T) {
	h := NewHandler(testTable(t), Options{})
	for _, tc := range []struct {
		name, desired, in string
		// want are the converted object's members but metadata.
		want     map[string]string
		wantMeta string
	}{
		{"no metadata, no fields", "test.io/v3", `{"apiVersion":"test.io/v2","kind":"Box"}`,
			map[string]string{"apiVersion": `"test.io/v3"`, "kind": `"Box"`}, ""},
		{"some fields only", "test.io/v3", `{"apiVersion":"test.io/v2","kind":"Box","host":"h"}`,
			map[string]string{"apiVersion": `"test.io/v3"`, "kind": `"Box"`, "host": `"h"`}, ""},
		{"no metadata, from a spoke", "test.io/v2", `{"apiVersion":"test.io/v1","kind":"Box","hostPort":"h:1"}`,
			map[string]string{"apiVersion": `"test.io/v2"`, "kind": `"Box"`, "host": `"h"`, "port": `"1"`}, ""},
		{"managed fields alone", "test.io/v3", `{"apiVersion":"test.io/v2","kind":"Box","metadata":{"managedFields":[{"manager":"m","operation":"Apply"}]}}`,
			map[string]string{"apiVersion": `"test.io/v3"`, "kind": `"Box"`}, `{"managedFields":[{"manager":"m","operation":"Apply"}]}`},
		{"a name alone", "test.io/v1", `{"apiVersion":"test.io/v2","kind":"Box","metadata":{"name":"n"},"host":"h","port":"2"}`,
			map[string]string{"apiVersion": `"test.io/v1"`, "kind": `"Box"`, "hostPort": `"h:2"`}, `{"name":"n"}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := decode(t, post(h, "application/json", reviewBody("apiextensions.k8s.io/v1", "u", tc.desired, tc.in)))
			if out.Response.Result.Status != "Success" || len(out.Response.ConvertedObjects) != 1 {
				t.Fatalf("response %+v", out.Response)
			}
			var got map[string]json.RawMessage
			if err := json.Unmarshal(out.Response.ConvertedObjects[0], &got); err != nil {
				t.Fatal(err)
			}
			meta, ok := got["metadata"]
			if !ok {
				t.Errorf("no metadata in %s", out.Response.ConvertedObjects[0])
			}
			if tc.wantMeta != "" && string(meta) != tc.wantMeta {
				t.Errorf("metadata %s, want %s as it came", meta, tc.wantMeta)
			}
			delete(got, "metadata")
			if len(got) != len(tc.want) {
				t.Errorf("converted %s, want the members %v", out.Response.ConvertedObjects[0], tc.want)
			}
			for k, v := range tc.want {
				if string(got[k]) != v {
					t.Errorf("%s is %s, want %s", k, got[k], v)
				}
			}
		})
	}
}
