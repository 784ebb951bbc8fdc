package v1

import (
	"testing"

	v2 "github.com/crdforge/crdforge/testdata/lists/api/v2"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// A list converts with its metadata and every item's, templates' included.
func TestWidgetListConverts(t *testing.T) {
	in := &WidgetList{
		ListMeta: metav1.ListMeta{ResourceVersion: "7", Continue: "next"},
		Items: []Widget{{
			ObjectMeta: metav1.ObjectMeta{Name: "a"},
			Spec: WidgetSpec{Replicas: 2, Template: WidgetTemplate{
				ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "a"}},
				Image:      "busybox",
			}},
		}},
	}
	hub := &v2.WidgetList{}
	if err := in.ConvertTo(hub); err != nil {
		t.Fatal(err)
	}
	if hub.ResourceVersion != "7" || hub.Continue != "next" || len(hub.Items) != 1 {
		t.Fatalf("list metadata or items lost: %+v", hub)
	}
	if got := hub.Items[0]; got.Name != "a" || got.Spec.Replicas != 2 || got.Spec.Template.Labels["app"] != "a" || got.Spec.Template.Image != "busybox" {
		t.Fatalf("item converted wrong: %+v", got)
	}
	back := &WidgetList{}
	if err := back.ConvertFrom(hub); err != nil {
		t.Fatal(err)
	}
	if back.ResourceVersion != "7" || len(back.Items) != 1 || back.Items[0].Spec.Template.Labels["app"] != "a" {
		t.Fatalf("round trip lost data: %+v", back)
	}
}
