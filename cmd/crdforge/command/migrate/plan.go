package migrate

import (
	apiextv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/crdforge/crdforge/webhook/storagemigrate"
)

// plan is what a run derives from the CRD: storagemigrate's Plan, which
// the webhook's --migrate-storage reads the same way, in the names this
// package's files use.
type plan struct {
	resource  schema.GroupVersionResource // at the storage version
	storage   string
	served    []string            // in spec.versions order
	webhook   bool                // conversion strategy Webhook
	servedAPI map[string]struct{} // group/version of each served version
	// generation is the CRD's metadata.generation the plan was made from,
	// which the API server raises on every change of the spec.
	generation int64
	core       *storagemigrate.Plan
}

// planFor checks that crd has exactly one storage version, and that it is
// served, and says how to migrate it.
func planFor(crd *apiextv1.CustomResourceDefinition) (*plan, error) {
	u, err := toUnstructured(crd)
	if err != nil {
		return nil, err
	}
	core, err := storagemigrate.PlanFor(u)
	if err != nil {
		return nil, err
	}
	return &plan{resource: core.Resource, storage: core.Storage, served: core.Served, webhook: core.Webhook,
		servedAPI: core.ServedAPI, generation: core.Generation, core: core}, nil
}

// toUnstructured is crd as the dynamic client reads it.
func toUnstructured(crd *apiextv1.CustomResourceDefinition) (*unstructured.Unstructured, error) {
	obj, err := runtime.DefaultUnstructuredConverter.ToUnstructured(crd)
	if err != nil {
		return nil, err
	}
	return &unstructured.Unstructured{Object: obj}, nil
}
