package storagemigrate

import (
	"context"
	"errors"
	"fmt"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// ErrCRDChanged marks a run whose CRD changed under it: status.storedVersions
// was left alone.
var ErrCRDChanged = errors.New("the CustomResourceDefinition changed during the run")

// CRDClient reads a CRD and writes its status: the dynamic client's
// Resource(CRDResource) is one; crdforge migrate adapts its typed client.
type CRDClient interface {
	Get(ctx context.Context, name string, opts metav1.GetOptions, subresources ...string) (*unstructured.Unstructured, error)
	UpdateStatus(ctx context.Context, obj *unstructured.Unstructured, opts metav1.UpdateOptions) (*unstructured.Unstructured, error)
}

// SetStoredVersions sets status.storedVersions of the CRD to [p.Storage],
// right after confirming on a fresh read of the CRD that its spec is the one
// the run migrated to (ConfirmPlan): storedVersions must keep every version
// objects may be stored at. The update carries the resourceVersion of that
// read, so a change made after it conflicts instead of being overwritten;
// on a conflict (the API server updates the CRD's status itself) the CRD is
// read and confirmed again. It returns storedVersions as set, and whether it
// changed them.
func SetStoredVersions(ctx context.Context, crds CRDClient, p *Plan, r Retrier, fieldManager string) ([]string, bool, error) {
	for attempt := 1; ; attempt++ {
		crd, err := crds.Get(ctx, p.CRD, metav1.GetOptions{})
		if err != nil {
			if r.Again(ctx, attempt, err) {
				continue
			}
			return nil, false, fmt.Errorf("re-reading %s: %w", p.CRD, r.GaveUp(attempt, err))
		}
		now, err := ConfirmPlan(crd, p)
		if err != nil {
			return nil, false, err
		}
		if !now.Needed() {
			return now.StoredVersions, false, nil
		}
		if err := unstructured.SetNestedStringSlice(crd.Object, []string{p.Storage}, "status", "storedVersions"); err != nil {
			return nil, false, err
		}
		upd, err := crds.UpdateStatus(ctx, crd, metav1.UpdateOptions{FieldManager: fieldManager})
		if (apierrors.IsConflict(err) && attempt < r.Attempts) || (err != nil && r.Again(ctx, attempt, err)) {
			continue
		}
		if err != nil {
			return nil, false, fmt.Errorf("setting status.storedVersions of %s to [%s]: %w", p.CRD, p.Storage, r.GaveUp(attempt, err))
		}
		after, _, _ := unstructured.NestedStringSlice(upd.Object, "status", "storedVersions")
		return after, true, nil
	}
}

// ConfirmPlan checks that crd, read again, still has the storage version p
// migrated to, and the spec generation p was made from: a spec that changed
// may have moved the storage version away and back meanwhile, and objects
// written in between are stored at a version storedVersions must keep. The
// run then stops; the next one starts from the CRD as it is. It returns the
// plan of crd as read.
func ConfirmPlan(crd *unstructured.Unstructured, p *Plan) (*Plan, error) {
	now, err := PlanFor(crd)
	if err != nil {
		return nil, err
	}
	if now.Storage != p.Storage {
		return nil, fmt.Errorf("%w: the storage version of %s changed from %s to %s; status.storedVersions left at %v: migrate again",
			ErrCRDChanged, p.CRD, p.Storage, now.Storage, now.StoredVersions)
	}
	if now.Generation != p.Generation {
		return nil, fmt.Errorf("%w: the spec of %s changed (generation %d, now %d), and objects written meanwhile may be stored at another version; status.storedVersions left at %v: migrate again",
			ErrCRDChanged, p.CRD, p.Generation, now.Generation, now.StoredVersions)
	}
	return now, nil
}
