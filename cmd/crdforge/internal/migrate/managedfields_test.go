package migrate

import (
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

func TestPruneManagedFields(t *testing.T) {
	served := map[string]struct{}{group + "/v1": {}}
	u := obj("ns", "a", group+"/v1", group+"/v1beta1")
	if n := pruneManagedFields(u, served); n != 1 {
		t.Errorf("dropped %d, want 1", n)
	}
	if mf := u.GetManagedFields(); len(mf) != 1 || mf[0].APIVersion != group+"/v1" {
		t.Errorf("kept %+v", mf)
	}
	u = obj("ns", "b", group+"/v1beta1", group+"/v1alpha1")
	if n := pruneManagedFields(u, served); n != 2 {
		t.Errorf("dropped %d, want 2", n)
	}
	list, _, _ := unstructured.NestedSlice(u.Object, "metadata", "managedFields")
	if len(list) != 1 || len(list[0].(map[string]any)) != 0 {
		t.Errorf("all dropped: managedFields %v, want [{}]", list)
	}
	u = obj("ns", "c", group+"/v1")
	before := u.DeepCopy()
	if n := pruneManagedFields(u, served); n != 0 || !equality(before, u) {
		t.Errorf("nothing to drop: dropped %d, %v", n, u.Object)
	}
	if n := pruneManagedFields(obj("ns", "d"), served); n != 0 {
		t.Errorf("no managedFields: dropped %d", n)
	}
}

func equality(a, b *unstructured.Unstructured) bool {
	ab, _ := a.MarshalJSON()
	bb, _ := b.MarshalJSON()
	return string(ab) == string(bb)
}
