package storagemigrate

import (
	"slices"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// managers lists obj's managedFields entries by manager, "{}" for an empty
// entry; nil when there is no managedFields list at all.
func managers(obj *unstructured.Unstructured) []string {
	list, ok, _ := unstructured.NestedSlice(obj.Object, "metadata", "managedFields")
	if !ok {
		return nil
	}
	out := []string{}
	for _, e := range list {
		m := e.(map[string]any)
		if len(m) == 0 {
			out = append(out, "{}")
			continue
		}
		out = append(out, m["manager"].(string))
	}
	return out
}

// group is the test CRD's.
const group = "example.com"

func TestPruneManagedFields(t *testing.T) {
	v1, v1beta1, v1alpha1 := group+"/v1", group+"/v1beta1", group+"/v1alpha1"
	served := map[string]struct{}{v1: {}}
	for _, c := range []struct {
		name    string
		managed []string // apiVersions of the entries, managed by "m-"+apiVersion
		dropped int
		want    []string // managers kept
	}{
		{"drops an unserved version, keeps a served one", []string{v1, v1beta1}, 1, []string{"m-" + v1}},
		{"keeps the order of what it keeps", []string{v1beta1, v1, v1alpha1, v1}, 2, []string{"m-" + v1, "m-" + v1}},
		{"all dropped leaves one empty entry, which clears them", []string{v1beta1, v1alpha1}, 2, []string{"{}"}},
		{"an entry without apiVersion stays", []string{"", v1beta1}, 1, []string{"m-"}},
		{"nothing to drop", []string{v1, v1}, 0, []string{"m-" + v1, "m-" + v1}},
		{"no managedFields", nil, 0, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			u := obj("ns", "a", c.managed...)
			before := u.DeepCopy()
			if n := PruneManagedFields(u, served); n != c.dropped {
				t.Errorf("dropped %d, want %d", n, c.dropped)
			}
			if got := managers(u); !slices.Equal(got, c.want) {
				t.Errorf("kept %v, want %v", got, c.want)
			}
			if c.dropped == 0 && !equality(before, u) {
				t.Errorf("nothing dropped, but the object changed: %v", u.Object)
			}
		})
	}
}

func equality(a, b *unstructured.Unstructured) bool {
	ab, _ := a.MarshalJSON()
	bb, _ := b.MarshalJSON()
	return string(ab) == string(bb)
}

// obj is a CronTab of example.com/v1 with managedFields entries of the
// apiVersions managed, each managed by "m-"+apiVersion.
func obj(ns, name string, managed ...string) *unstructured.Unstructured {
	u := &unstructured.Unstructured{Object: map[string]any{"spec": map[string]any{"image": name}}}
	u.SetAPIVersion(group + "/v1")
	u.SetKind("CronTab")
	u.SetNamespace(ns)
	u.SetName(name)
	var mf []metav1.ManagedFieldsEntry
	for _, av := range managed {
		mf = append(mf, metav1.ManagedFieldsEntry{Manager: "m-" + av, Operation: metav1.ManagedFieldsOperationUpdate, APIVersion: av})
	}
	u.SetManagedFields(mf)
	return u
}
