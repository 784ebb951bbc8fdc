package migrate

import (
	"context"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	discoveryfake "k8s.io/client-go/discovery/fake"
	clienttesting "k8s.io/client-go/testing"
)

// The e2e suite checks storageVersionHash against a real API server's
// discovery; this pins the value.
func TestStorageVersionHash(t *testing.T) {
	if got, want := storageVersionHash(group, "v1", "CronTab"), "bodr40kQYQo="; got != want {
		t.Errorf("storageVersionHash = %q, want %q", got, want)
	}
}

func TestWaitStorageVersion(t *testing.T) {
	discoveryWith := func(gv, hash string) *discoveryfake.FakeDiscovery {
		return &discoveryfake.FakeDiscovery{Fake: &clienttesting.Fake{Resources: []*metav1.APIResourceList{{
			GroupVersion: gv,
			APIResources: []metav1.APIResource{{Name: "other"}, {Name: "crontabs", StorageVersionHash: hash}},
		}}}}
	}
	for _, c := range []struct {
		name      string
		disc      *discoveryfake.FakeDiscovery
		wantErr   string
		wantCheck string
	}{
		{"discovery reports the storage version", discoveryWith(group+"/v1", storageVersionHash(group, "v1", "CronTab")),
			"", "discovery reports storage version v1"},
		{"no storageVersionHash: not waited for", discoveryWith(group+"/v1", ""),
			"", "discovery gives no storageVersionHash; not checked"},
		{"still the old storage version", discoveryWith(group+"/v1", storageVersionHash(group, "v1beta1", "CronTab")),
			`does not report v1 as the storage version of crontabs.example.com yet (storageVersionHash "`, ""},
		{"discovery fails", discoveryWith("other.example.com/v1", ""),
			"discovery of example.com/v1:", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			crd := testCRD("v1", "v1", "v1beta1")
			p, err := planFor(crd)
			if err != nil {
				t.Fatal(err)
			}
			var res Result
			err = waitStorageVersion(context.Background(), c.disc, crd, p, time.Nanosecond, &res)
			if c.wantErr == "" && err != nil || c.wantErr != "" && (err == nil || !strings.Contains(err.Error(), c.wantErr)) {
				t.Errorf("error %v, want %q", err, c.wantErr)
			}
			if res.StorageCheck != c.wantCheck {
				t.Errorf("StorageCheck %q, want %q", res.StorageCheck, c.wantCheck)
			}
		})
	}
}

func TestWaitStorageVersionWithoutDiscovery(t *testing.T) {
	crd := testCRD("v1", "v1")
	p, _ := planFor(crd)
	var res Result
	if err := waitStorageVersion(context.Background(), nil, crd, p, time.Nanosecond, &res); err != nil || res.StorageCheck != "" {
		t.Errorf("no discovery client: %v, %q; want no wait and no check", err, res.StorageCheck)
	}
}
