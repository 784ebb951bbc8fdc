package migrate

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"time"

	apiextv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/client-go/discovery"
)

// storageVersionHash is the storageVersionHash the API server's discovery
// gives a resource stored at group/version as kind (the same computation as
// k8s.io/apiserver/pkg/endpoints/discovery.StorageVersionHash).
func storageVersionHash(group, version, kind string) string {
	sum := sha256.Sum256([]byte(group + "/" + version + "/" + kind))
	return base64.StdEncoding.EncodeToString(sum[:8])
}

// waitStorageVersion waits until discovery reports the CRD's storage
// version: right after a CRD update the API server may still write at the
// previous storage version for a moment, and rewriting objects then would
// not move them. Discovery is updated from the same CRD events as the
// handlers that store objects, so it is a good (not a perfect) sign. A
// server without storageVersionHash in discovery is not waited for.
func waitStorageVersion(ctx context.Context, disc discovery.DiscoveryInterface, crd *apiextv1.CustomResourceDefinition, p *plan, timeout time.Duration, res *Result) error {
	if disc == nil {
		return nil
	}
	want := storageVersionHash(crd.Spec.Group, p.storage, crd.Spec.Names.Kind)
	gv := crd.Spec.Group + "/" + p.storage
	deadline := time.Now().Add(timeout)
	var last string
	for {
		list, err := disc.ServerResourcesForGroupVersion(gv)
		if err == nil {
			for _, r := range list.APIResources {
				if r.Name != p.resource.Resource {
					continue
				}
				last = r.StorageVersionHash
				switch last {
				case "":
					res.StorageCheck = "discovery gives no storageVersionHash; not checked"
					return nil
				case want:
					res.StorageCheck = "discovery reports storage version " + p.storage
					return nil
				}
			}
		}
		if time.Now().After(deadline) {
			if err != nil {
				return fmt.Errorf("discovery of %s: %w", gv, err)
			}
			return fmt.Errorf("the API server does not report %s as the storage version of %s yet (storageVersionHash %q, want %q); try again in a moment", p.storage, crd.Name, last, want)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(200 * time.Millisecond):
		}
	}
}
