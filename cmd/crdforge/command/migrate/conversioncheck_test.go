package migrate

import (
	"context"
	"testing"

	apiextv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/runtime"
	clienttesting "k8s.io/client-go/testing"
)

func TestCheckConversion(t *testing.T) {
	none := testCRD("v1", "v1", "v1beta1")
	none.Spec.Conversion.Strategy = apiextv1.NoneConverter
	for _, c := range []struct {
		name string
		crd  *apiextv1.CustomResourceDefinition
		objs []runtime.Object
		// converts: reads at v1beta1 find the object, as on an API server
		// whose webhook answers (the fake keeps objects per version: a
		// read at v1beta1 is a 404, as for an object deleted meanwhile).
		converts bool
		want     string
		reads    int // gets of single objects
	}{
		{"strategy None: nothing read", none, []runtime.Object{obj("a", "one")}, true, "conversion strategy None: no webhook to check", 0},
		{"no objects", testCRD("v1", "v1", "v1beta1"), nil, true, "no objects: nothing to convert", 0},
		{"one object read at the other served version", testCRD("v1", "v1", "v1beta1"), []runtime.Object{obj("a", "one")},
			true, "read a/one at v1 and [v1beta1]", 1},
		{"deleted between the list and the read: not a refusal", testCRD("v1", "v1", "v1beta1"), []runtime.Object{obj("a", "one")},
			false, "read a/one at v1 and []", 1},
		{"one served version: nothing else to read at", testCRD("v1", "v1"), []runtime.Object{obj("a", "one")},
			true, "read a/one at v1 and []", 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := newFixture(t, c.crd, c.objs...)
			if c.converts {
				f.dyn.PrependReactor("get", "crontabs", func(a clienttesting.Action) (bool, runtime.Object, error) {
					if a.GetResource().Version != "v1beta1" {
						return false, nil, nil
					}
					u := obj(a.GetNamespace(), a.(clienttesting.GetAction).GetName())
					u.SetAPIVersion(group + "/v1beta1")
					return true, u, nil
				})
			}
			p, err := planFor(c.crd)
			if err != nil {
				t.Fatal(err)
			}
			var res Result
			if err := checkConversion(context.Background(), f.dyn, c.crd, p, &res); err != nil {
				t.Fatal(err)
			}
			if res.ConversionCheck != c.want {
				t.Errorf("ConversionCheck %q, want %q", res.ConversionCheck, c.want)
			}
			gets := 0
			for _, a := range f.dyn.Actions() {
				if a.GetVerb() == "get" {
					gets++
				}
			}
			if gets != c.reads {
				t.Errorf("%d reads, want %d", gets, c.reads)
			}
		})
	}
}

func TestKey(t *testing.T) {
	if got := key(obj("ns", "a")); got != "ns/a" {
		t.Errorf("namespaced: %q", got)
	}
	if got := key(obj("", "a")); got != "a" {
		t.Errorf("cluster-scoped: %q", got)
	}
}
