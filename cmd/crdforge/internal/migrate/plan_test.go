package migrate

import (
	"slices"
	"strings"
	"testing"
)

func TestPlanFor(t *testing.T) {
	p, err := planFor(testCRD("v1", "v1", "v1beta1"))
	if err != nil {
		t.Fatal(err)
	}
	if p.storage != "v1" || !p.webhook || !slices.Equal(p.served, []string{"v1", "v1beta1"}) || p.resource.Resource != "crontabs" {
		t.Errorf("plan %+v", p)
	}
	if _, ok := p.servedAPI[group+"/v1beta1"]; !ok {
		t.Errorf("servedAPI %v lacks v1beta1", p.servedAPI)
	}
	if _, err := planFor(testCRD("v1", "v1beta1")); err == nil || !strings.Contains(err.Error(), "not served") {
		t.Errorf("unserved storage: %v", err)
	}
	two := testCRD("v1", "v1", "v1beta1")
	two.Spec.Versions[1].Storage = true
	if _, err := planFor(two); err == nil || !strings.Contains(err.Error(), "2 storage versions") {
		t.Errorf("two storage versions: %v", err)
	}
}
