package storagemigrate

import (
	"fmt"
	"slices"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// CRDResource is the CustomResourceDefinitions', for the dynamic client.
var CRDResource = schema.GroupVersionResource{Group: "apiextensions.k8s.io", Version: "v1", Resource: "customresourcedefinitions"}

// Plan is what a migration reads from its CRD.
type Plan struct {
	// CRD is the CRD's name, <plural>.<group>.
	CRD string
	// Resource is the objects' resource at the storage version.
	Resource schema.GroupVersionResource
	// Storage is the storage version; Served the served versions, in
	// spec.versions order.
	Storage string
	Served  []string
	// Webhook is true when the CRD converts through a webhook.
	Webhook bool
	// ServedAPI holds group/version of each served version: managedFields
	// entries of any other apiVersion are dropped.
	ServedAPI map[string]struct{}
	// Generation is the CRD's metadata.generation the plan was made from,
	// which the API server raises on every change of the spec.
	Generation int64
	// StoredVersions is the CRD's status.storedVersions when read.
	StoredVersions []string
}

// PlanFor checks that crd, a CustomResourceDefinition as the dynamic client
// reads it, has exactly one storage version, served, and says how to migrate
// it.
func PlanFor(crd *unstructured.Unstructured) (*Plan, error) {
	p := &Plan{CRD: crd.GetName(), ServedAPI: map[string]struct{}{}, Generation: crd.GetGeneration()}
	group, _, _ := unstructured.NestedString(crd.Object, "spec", "group")
	plural, _, _ := unstructured.NestedString(crd.Object, "spec", "names", "plural")
	versions, _, _ := unstructured.NestedSlice(crd.Object, "spec", "versions")
	var storage []string
	storageServed := false
	for _, v := range versions {
		m, _ := v.(map[string]any)
		name, _ := m["name"].(string)
		served, _ := m["served"].(bool)
		if s, _ := m["storage"].(bool); s {
			storage = append(storage, name)
			storageServed = served
		}
		if served {
			p.Served = append(p.Served, name)
			p.ServedAPI[group+"/"+name] = struct{}{}
		}
	}
	if len(storage) != 1 {
		return nil, fmt.Errorf("CustomResourceDefinition %s has %d storage versions %v, want exactly one", p.CRD, len(storage), storage)
	}
	if !storageServed {
		return nil, fmt.Errorf("CustomResourceDefinition %s: storage version %s is not served; serve it to migrate", p.CRD, storage[0])
	}
	p.Storage = storage[0]
	p.Resource = schema.GroupVersionResource{Group: group, Version: p.Storage, Resource: plural}
	strategy, _, _ := unstructured.NestedString(crd.Object, "spec", "conversion", "strategy")
	p.Webhook = strategy == "Webhook"
	p.StoredVersions, _, _ = unstructured.NestedStringSlice(crd.Object, "status", "storedVersions")
	return p, nil
}

// Needed reports whether status.storedVersions holds a version other than
// the storage version: objects may be stored at it.
func (p *Plan) Needed() bool {
	return !slices.Equal(p.StoredVersions, []string{p.Storage})
}
