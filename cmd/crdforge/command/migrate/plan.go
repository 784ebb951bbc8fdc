package migrate

import (
	"fmt"

	apiextv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// plan is what a run derives from the CRD.
type plan struct {
	resource  schema.GroupVersionResource // at the storage version
	storage   string
	served    []string            // in spec.versions order
	webhook   bool                // conversion strategy Webhook
	servedAPI map[string]struct{} // group/version of each served version
	// generation is the CRD's metadata.generation the plan was made from,
	// which the API server raises on every change of the spec.
	generation int64
}

// planFor checks that crd has exactly one storage version, and that it is
// served, and says how to migrate it.
func planFor(crd *apiextv1.CustomResourceDefinition) (*plan, error) {
	p := &plan{servedAPI: map[string]struct{}{}, generation: crd.Generation}
	var storage []string
	storageServed := false
	for _, v := range crd.Spec.Versions {
		if v.Storage {
			storage = append(storage, v.Name)
			storageServed = v.Served
		}
		if v.Served {
			p.served = append(p.served, v.Name)
			p.servedAPI[crd.Spec.Group+"/"+v.Name] = struct{}{}
		}
	}
	if len(storage) != 1 {
		return nil, fmt.Errorf("CustomResourceDefinition %s has %d storage versions %v, want exactly one", crd.Name, len(storage), storage)
	}
	if !storageServed {
		return nil, fmt.Errorf("CustomResourceDefinition %s: storage version %s is not served; serve it to migrate", crd.Name, storage[0])
	}
	p.storage = storage[0]
	p.resource = schema.GroupVersionResource{Group: crd.Spec.Group, Version: p.storage, Resource: crd.Spec.Names.Plural}
	p.webhook = crd.Spec.Conversion != nil && crd.Spec.Conversion.Strategy == apiextv1.WebhookConverter
	return p, nil
}
