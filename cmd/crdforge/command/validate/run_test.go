package validate

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// objects are Things in a YAML file of several documents: one valid, one
// refused on several fields with an unknown one, one of a kind no CRD
// defines, one updated against an old object.
const objects = `apiVersion: g.example.com/v1
kind: Thing
metadata: {name: ok, namespace: default}
spec:
  name: abc
---
apiVersion: g.example.com/v1
kind: Thing
metadata: {name: bad, namespace: default}
spec:
  replicas: 11
  extra: 1
---
apiVersion: g.example.com/v1
kind: Gadget
metadata: {name: g}
---
apiVersion: g.example.com/v1
kind: Thing
metadata: {name: moved, namespace: default}
spec:
  id: "y"
`

const oldObjects = `{"apiVersion": "g.example.com/v1", "kind": "Thing", "metadata": {"name": "moved", "namespace": "default"}, "spec": {"id": "x"}}`

// thingCRD is a CRD whose v1 has a bounded, defaulted replicas, a name a
// CEL rule holds to a prefix, and an immutable field (a transition rule).
const thingCRD = `{"metadata":{"name":"things.g.example.com"},"spec":{"group":"g.example.com","scope":"Namespaced",
"names":{"kind":"Thing","plural":"things"},"versions":[{"name":"v1","served":true,"storage":true,"schema":{"openAPIV3Schema":
{"type":"object","properties":{"apiVersion":{"type":"string"},"kind":{"type":"string"},"metadata":{"type":"object"},
"spec":{"type":"object","properties":{
 "replicas":{"type":"integer","minimum":1,"maximum":10,"default":1},
 "name":{"type":"string","x-kubernetes-validations":[{"rule":"self.startsWith('a')","message":"name must start with a"}]},
 "id":{"type":"string","x-kubernetes-validations":[{"rule":"self == oldSelf","message":"id is immutable"}]}}}}}}}]}}`

// Run reports every problem of every document at its field's line and
// column, the CRD found by group and kind, an object of --old checked as
// an update (its transition rule), the others as creates.
func TestRunReportsEachObjectAtItsFields(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	crd := write("crd.json", `{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",`+strings.TrimPrefix(thingCRD, "{"))
	rep, err := Run(Options{Files: []string{write("objects.yaml", objects)}, CRDs: []string{crd}, Old: []string{write("old.json", oldObjects)}})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range rep.Diags.Items() {
		got = append(got, strings.SplitN(d.Format(dir), "\n", 2)[0]+" ["+d.Field+"]")
	}
	want := []string{
		"objects.yaml:11:3: spec.replicas: Invalid value: 11: spec.replicas in body should be less than or equal to 10 [spec.replicas]",
		"objects.yaml:12:3: warning: spec.extra: unknown field, which the API server would drop [spec.extra]",
		"objects.yaml:15:1: Gadget g not checked: no CRD defines kind Gadget.g.example.com [kind]",
		"objects.yaml:22:3: spec.id: Invalid value: \"y\": id is immutable [spec.id]",
	}
	if !slices.Equal(got, want) {
		t.Errorf("diagnostics\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if len(rep.Checked) != 3 || rep.Checked[0].Result.Object["spec"].(map[string]any)["replicas"] != int64(1) {
		t.Errorf("checked %+v, want 3 objects, the first defaulted", rep.Checked)
	}
}

// An old object at another version than the new one's is not compared:
// the server converts it first, which validate cannot; it says so at the
// new object's apiVersion.
func TestRunRefusesAnOldObjectAtAnotherVersion(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	crd := write("crd.json", `{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",`+strings.TrimPrefix(thingCRD, "{"))
	old := write("old.yaml", strings.Replace(oldObjects, "g.example.com/v1", "g.example.com/v2", 1))
	rep, err := Run(Options{Files: []string{write("new.yaml", "kind: Thing\napiVersion: g.example.com/v1\nmetadata: {name: moved, namespace: default}\n")}, CRDs: []string{crd}, Old: []string{old}})
	if err != nil {
		t.Fatal(err)
	}
	items := rep.Diags.Items()
	if len(items) != 1 || rep.Unchecked != 1 || !strings.HasPrefix(items[0].Format(dir), "new.yaml:2:1: Thing default/moved not checked: the old object is at v2, this one at v1") {
		t.Errorf("diagnostics %v, unchecked %d", items, rep.Unchecked)
	}
}
