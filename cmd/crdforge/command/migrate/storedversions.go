package migrate

import (
	"context"

	apiextv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apiext "k8s.io/apiextensions-apiserver/pkg/client/clientset/clientset"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/crdforge/crdforge/webhook/storagemigrate"
)

// errCRDChanged marks a run whose CRD changed under it: status.storedVersions
// was left alone.
var errCRDChanged = storagemigrate.ErrCRDChanged

// setStoredVersions sets status.storedVersions to [p.storage] as
// storagemigrate.SetStoredVersions does (confirming first that the CRD's
// spec is the one the run migrated to), through the typed client.
func setStoredVersions(ctx context.Context, ext apiext.Interface, _ string, p *plan, r retrier, res *Result) error {
	after, updated, err := storagemigrate.SetStoredVersions(ctx, typedCRDs{ext}, p.core, r, fieldManager)
	if err != nil {
		return err
	}
	res.storedAfter, res.storedUpdated = after, updated
	return nil
}

// typedCRDs is the typed client of CRDs as a storagemigrate.CRDClient.
type typedCRDs struct{ ext apiext.Interface }

func (c typedCRDs) Get(ctx context.Context, name string, opts metav1.GetOptions, _ ...string) (*unstructured.Unstructured, error) {
	crd, err := c.ext.ApiextensionsV1().CustomResourceDefinitions().Get(ctx, name, opts)
	if err != nil {
		return nil, err
	}
	return toUnstructured(crd)
}

func (c typedCRDs) UpdateStatus(ctx context.Context, obj *unstructured.Unstructured, opts metav1.UpdateOptions) (*unstructured.Unstructured, error) {
	var crd apiextv1.CustomResourceDefinition
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(obj.Object, &crd); err != nil {
		return nil, err
	}
	upd, err := c.ext.ApiextensionsV1().CustomResourceDefinitions().UpdateStatus(ctx, &crd, opts)
	if err != nil {
		return nil, err
	}
	return toUnstructured(upd)
}
