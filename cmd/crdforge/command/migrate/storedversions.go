package migrate

import (
	"context"
	"fmt"
	"slices"

	apiext "k8s.io/apiextensions-apiserver/pkg/client/clientset/clientset"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// setStoredVersions sets status.storedVersions to [storage], after checking
// that the storage version did not change during the run (storedVersions
// must keep every version objects may be stored at). It retries conflicts:
// the API server updates the CRD's status itself.
func setStoredVersions(ctx context.Context, ext apiext.Interface, name, storage string, res *Result) error {
	crds := ext.ApiextensionsV1().CustomResourceDefinitions()
	for attempt := 0; ; attempt++ {
		crd, err := crds.Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return fmt.Errorf("re-reading %s: %w", name, err)
		}
		p, err := planFor(crd)
		if err != nil {
			return err
		}
		if p.storage != storage {
			return fmt.Errorf("the storage version of %s changed from %s to %s during the run; run again", name, storage, p.storage)
		}
		if slices.Equal(crd.Status.StoredVersions, []string{storage}) {
			res.storedAfter = crd.Status.StoredVersions
			return nil
		}
		crd.Status.StoredVersions = []string{storage}
		upd, err := crds.UpdateStatus(ctx, crd, metav1.UpdateOptions{FieldManager: fieldManager})
		if apierrors.IsConflict(err) && attempt < defaultRetries {
			continue
		}
		if err != nil {
			return fmt.Errorf("setting status.storedVersions of %s to [%s]: %w", name, storage, err)
		}
		res.storedAfter = upd.Status.StoredVersions
		res.storedUpdated = true
		return nil
	}
}
