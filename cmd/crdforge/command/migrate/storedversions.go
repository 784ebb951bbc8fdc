package migrate

import (
	"context"
	"errors"
	"fmt"
	"slices"

	apiextv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apiext "k8s.io/apiextensions-apiserver/pkg/client/clientset/clientset"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// errCRDChanged marks a run whose CRD changed under it: status.storedVersions
// was left alone.
var errCRDChanged = errors.New("the CustomResourceDefinition changed during the run")

// setStoredVersions sets status.storedVersions to [p.storage], right after
// confirming on a fresh read of the CRD that its spec is the one the run
// migrated to (see confirmPlan): storedVersions must keep every version
// objects may be stored at. The update carries the resourceVersion of that
// read, so a change made after it conflicts instead of being overwritten;
// on a conflict (the API server updates the CRD's status itself) the CRD
// is read and confirmed again.
func setStoredVersions(ctx context.Context, ext apiext.Interface, name string, p *plan, r retrier, res *Result) error {
	crds := ext.ApiextensionsV1().CustomResourceDefinitions()
	for attempt := 1; ; attempt++ {
		crd, err := crds.Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			if r.again(ctx, attempt, err) {
				continue
			}
			return fmt.Errorf("re-reading %s: %w", name, r.gaveUp(attempt, err))
		}
		if err := confirmPlan(crd, p); err != nil {
			return err
		}
		if slices.Equal(crd.Status.StoredVersions, []string{p.storage}) {
			res.storedAfter = crd.Status.StoredVersions
			return nil
		}
		crd.Status.StoredVersions = []string{p.storage}
		upd, err := crds.UpdateStatus(ctx, crd, metav1.UpdateOptions{FieldManager: fieldManager})
		if (apierrors.IsConflict(err) && attempt < r.attempts) || (err != nil && r.again(ctx, attempt, err)) {
			continue
		}
		if err != nil {
			return fmt.Errorf("setting status.storedVersions of %s to [%s]: %w", name, p.storage, r.gaveUp(attempt, err))
		}
		res.storedAfter = upd.Status.StoredVersions
		res.storedUpdated = true
		return nil
	}
}

// confirmPlan checks that crd, read again, still has the storage version p
// migrated to, and the spec generation p was made from: a spec that
// changed may have moved the storage version away and back meanwhile, and
// objects written in between are stored at a version storedVersions must
// keep. The run then stops; the next one starts from the CRD as it is.
func confirmPlan(crd *apiextv1.CustomResourceDefinition, p *plan) error {
	now, err := planFor(crd)
	if err != nil {
		return err
	}
	if now.storage != p.storage {
		return fmt.Errorf("%w: the storage version of %s changed from %s to %s; status.storedVersions left at %v: run crdforge migrate again",
			errCRDChanged, crd.Name, p.storage, now.storage, crd.Status.StoredVersions)
	}
	if crd.Generation != p.generation {
		return fmt.Errorf("%w: the spec of %s changed (generation %d, now %d), and objects written meanwhile may be stored at another version; status.storedVersions left at %v: run crdforge migrate again",
			errCRDChanged, crd.Name, p.generation, crd.Generation, crd.Status.StoredVersions)
	}
	return nil
}
