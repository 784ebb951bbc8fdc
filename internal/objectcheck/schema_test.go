package objectcheck

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	utiljson "k8s.io/apimachinery/pkg/util/json"
)

// thingCRD is a CRD whose v1 has a bounded, defaulted replicas, a name a
// CEL rule holds to a prefix, and an immutable field (a transition rule).
const thingCRD = `{"metadata":{"name":"things.g.example.com"},"spec":{"group":"g.example.com","scope":"Namespaced",
"names":{"kind":"Thing","plural":"things"},"versions":[{"name":"v1","served":true,"storage":true,"schema":{"openAPIV3Schema":
{"type":"object","properties":{"apiVersion":{"type":"string"},"kind":{"type":"string"},"metadata":{"type":"object"},
"spec":{"type":"object","properties":{
 "replicas":{"type":"integer","minimum":1,"maximum":10,"default":1},
 "name":{"type":"string","x-kubernetes-validations":[{"rule":"self.startsWith('a')","message":"name must start with a"}]},
 "id":{"type":"string","x-kubernetes-validations":[{"rule":"self == oldSelf","message":"id is immutable"}]}}}}}}}]}}`

func thingSchema(t *testing.T) *Schema {
	t.Helper()
	var c apiextensionsv1.CustomResourceDefinition
	if err := json.Unmarshal([]byte(thingCRD), &c); err != nil {
		t.Fatal(err)
	}
	s, err := NewSchema(&c, "v1")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func object(t *testing.T, spec string) map[string]any {
	t.Helper()
	var obj map[string]any // integers as int64, as the API server decodes them
	if err := utiljson.Unmarshal([]byte(`{"apiVersion":"g.example.com/v1","kind":"Thing","metadata":{"name":"t","namespace":"default"},"spec":`+spec+`}`), &obj); err != nil {
		t.Fatal(err)
	}
	return obj
}

// Check agrees with the API server on each kind of verdict: the schema's
// bounds, a CEL rule's message, a transition rule against the old object
// (and not on a create), ratcheting of a value already invalid, defaults
// applied, unknown fields pruned and reported.
func TestCheckAsTheAPIServerDoes(t *testing.T) {
	s := thingSchema(t)
	for _, tt := range []struct {
		name, spec, old string
		errors          []string // a part of each error, in order
		pruned          []string
		replicas        any // spec.replicas after defaulting
	}{
		{name: "valid, defaulted", spec: `{"name":"abc"}`, replicas: int64(1)},
		{name: "above the maximum", spec: `{"replicas":11}`, errors: []string{"spec.replicas: Invalid value: 11: spec.replicas in body should be less than or equal to 10"}, replicas: int64(11)},
		{name: "a CEL rule's message", spec: `{"name":"bcd"}`, errors: []string{"spec.name: Invalid value: \"bcd\": name must start with a"}, replicas: int64(1)},
		{name: "a transition rule on update", spec: `{"id":"y"}`, old: `{"id":"x"}`, errors: []string{"spec.id: Invalid value: \"y\": id is immutable"}, replicas: int64(1)},
		{name: "no transition rule on create", spec: `{"id":"y"}`, replicas: int64(1)},
		{name: "ratcheting: an old invalid value unchanged", spec: `{"replicas":11,"id":"x"}`, old: `{"replicas":11,"id":"x","name":"a"}`, replicas: int64(11)},
		{name: "unknown fields pruned", spec: `{"extra":true,"name":"a"}`, pruned: []string{"spec.extra"}, replicas: int64(1)},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var old map[string]any
			if tt.old != "" {
				old = object(t, tt.old)
			}
			res := s.Check(object(t, tt.spec), old)
			var got []string
			for _, e := range res.Errors {
				got = append(got, e.Error())
			}
			if len(got) != len(tt.errors) {
				t.Fatalf("errors %q, want %q", got, tt.errors)
			}
			for i := range got {
				if !strings.Contains(got[i], tt.errors[i]) {
					t.Errorf("error %q, want %q", got[i], tt.errors[i])
				}
			}
			if !reflect.DeepEqual(res.Pruned, tt.pruned) {
				t.Errorf("pruned %q, want %q", res.Pruned, tt.pruned)
			}
			if r := res.Object["spec"].(map[string]any)["replicas"]; !reflect.DeepEqual(r, tt.replicas) {
				t.Errorf("replicas %v (%T), want %v", r, r, tt.replicas)
			}
		})
	}
}

// A null where the schema allows none is dropped before validation, as the
// server's decoding drops it: kubebuilder's scaffolded sample, whose
// "spec:" holds only a comment, is accepted.
func TestCheckDropsANonNullableNull(t *testing.T) {
	res := thingSchema(t).Check(object(t, `null`), nil)
	if len(res.Errors) != 0 {
		t.Errorf("errors %v, want none", res.Errors)
	}
	if _, ok := res.Object["spec"]; ok {
		t.Errorf("spec kept: %v", res.Object["spec"])
	}
}
