package migrate

import (
	"maps"
	"slices"
	"strings"
	"testing"

	apiextv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

func TestPlanFor(t *testing.T) {
	noConversion := testCRD("v1", "v1", "v1beta1")
	noConversion.Spec.Conversion = nil
	strategyNone := testCRD("v1", "v1", "v1beta1")
	strategyNone.Spec.Conversion.Strategy = apiextv1.NoneConverter
	for _, c := range []struct {
		name      string
		crd       *apiextv1.CustomResourceDefinition
		served    []string
		servedAPI []string
		webhook   bool
	}{
		{"both served, webhook", testCRD("v1", "v1", "v1beta1"), []string{"v1", "v1beta1"}, []string{group + "/v1", group + "/v1beta1"}, true},
		{"an unserved version is not in servedAPI", testCRD("v1", "v1"), []string{"v1"}, []string{group + "/v1"}, true},
		{"storage at the older version", testCRD("v1beta1", "v1", "v1beta1"), []string{"v1", "v1beta1"}, []string{group + "/v1", group + "/v1beta1"}, true},
		{"strategy None has no webhook", strategyNone, []string{"v1", "v1beta1"}, []string{group + "/v1", group + "/v1beta1"}, false},
		{"no conversion stanza has no webhook", noConversion, []string{"v1", "v1beta1"}, []string{group + "/v1", group + "/v1beta1"}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			p, err := planFor(c.crd)
			if err != nil {
				t.Fatal(err)
			}
			var storage string
			for _, v := range c.crd.Spec.Versions {
				if v.Storage {
					storage = v.Name
				}
			}
			if want := (schema.GroupVersionResource{Group: group, Version: storage, Resource: "crontabs"}); p.resource != want || p.storage != storage {
				t.Errorf("resource %v, storage %s; want %v", p.resource, p.storage, want)
			}
			if !slices.Equal(p.served, c.served) {
				t.Errorf("served %v, want %v", p.served, c.served)
			}
			if got := slices.Sorted(maps.Keys(p.servedAPI)); !slices.Equal(got, c.servedAPI) {
				t.Errorf("servedAPI %v, want %v", got, c.servedAPI)
			}
			if p.webhook != c.webhook {
				t.Errorf("webhook %v, want %v", p.webhook, c.webhook)
			}
		})
	}
}

func TestPlanForRefuses(t *testing.T) {
	two := testCRD("v1", "v1", "v1beta1")
	two.Spec.Versions[1].Storage = true
	for _, c := range []struct {
		name string
		crd  *apiextv1.CustomResourceDefinition
		want string
	}{
		{"an unserved storage version", testCRD("v1", "v1beta1"), "storage version v1 is not served"},
		{"two storage versions", two, "has 2 storage versions [v1 v1beta1], want exactly one"},
		{"no storage version", testCRD("v2", "v1", "v1beta1"), "has 0 storage versions"},
	} {
		t.Run(c.name, func(t *testing.T) {
			p, err := planFor(c.crd)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("planFor = %+v, %v; want an error saying %q", p, err, c.want)
			}
		})
	}
}
