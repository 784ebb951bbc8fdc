package migrate

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	apiextv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	clienttesting "k8s.io/client-go/testing"
)

var crdsGVR = apiextv1.SchemeGroupVersion.WithResource("customresourcedefinitions")

// changeSpec does to the fixture's CRD what a kubectl apply of a changed
// spec does: the API server raises its generation.
func changeSpec(t *testing.T, f *fixture) {
	t.Helper()
	o, err := f.ext.Tracker().Get(crdsGVR, "", "crontabs."+group)
	if err != nil {
		t.Fatal(err)
	}
	crd := o.(*apiextv1.CustomResourceDefinition).DeepCopy()
	crd.Generation++
	crd.ResourceVersion += "0"
	if err := f.ext.Tracker().Update(crdsGVR, crd, ""); err != nil {
		t.Fatal(err)
	}
}

func generationCRD() *apiextv1.CustomResourceDefinition {
	crd := testCRD("v1", "v1")
	crd.Generation, crd.ResourceVersion = 3, "7"
	return crd
}

// TestStoredVersionsStopWhenTheSpecChanged changes the CRD's spec while the
// objects are rewritten, keeping v1 the storage version (it may have been
// elsewhere meanwhile): status.storedVersions stay as they were.
func TestStoredVersionsStopWhenTheSpecChanged(t *testing.T) {
	f := newFixture(t, generationCRD(), obj("a", "one"))
	f.dyn.PrependReactor("update", "crontabs", func(clienttesting.Action) (bool, runtime.Object, error) {
		changeSpec(t, f)
		return false, nil, nil
	})
	_, err := runWith(context.Background(), f.clients(), Options{CRD: "crontabs." + group})
	if !errors.Is(err, errCRDChanged) || !strings.Contains(err.Error(), "generation 3, now 4") {
		t.Fatalf("error %v, want errCRDChanged", err)
	}
	if got := f.stored(t); !slices.Equal(got, []string{"v1beta1", "v1"}) {
		t.Errorf("storedVersions %v, want unchanged", got)
	}
}

// TestStoredVersionsStopWhenAnUpdateRaced changes the spec between the
// re-read and the status update: the update, made with the re-read's
// resourceVersion, conflicts, and the CRD read again no longer confirms.
func TestStoredVersionsStopWhenAnUpdateRaced(t *testing.T) {
	f := newFixture(t, generationCRD(), obj("a", "one"))
	var sentRV []string
	f.ext.PrependReactor("update", "customresourcedefinitions", func(a clienttesting.Action) (bool, runtime.Object, error) {
		if a.GetSubresource() != "status" {
			return false, nil, nil
		}
		sentRV = append(sentRV, a.(clienttesting.UpdateAction).GetObject().(*apiextv1.CustomResourceDefinition).ResourceVersion)
		if len(sentRV) > 1 {
			return false, nil, nil // only the first races
		}
		changeSpec(t, f)
		return true, nil, apierrors.NewConflict(schema.GroupResource{Group: apiextv1.GroupName, Resource: "customresourcedefinitions"}, "crontabs."+group, errors.New("the object has been modified"))
	})
	_, err := runWith(context.Background(), f.clients(), Options{CRD: "crontabs." + group})
	if !errors.Is(err, errCRDChanged) {
		t.Fatalf("error %v, want errCRDChanged", err)
	}
	if !slices.Equal(sentRV, []string{"7"}) {
		t.Errorf("status updates sent with resourceVersions %q, want one, with the re-read's \"7\"", sentRV)
	}
	if got := f.stored(t); !slices.Equal(got, []string{"v1beta1", "v1"}) {
		t.Errorf("storedVersions %v, want unchanged", got)
	}
}

// TestStoredVersionsRetryAStatusRace: a conflict with a change that left
// the spec alone (the API server's own status conditions) is read again,
// confirmed, and the update goes through.
func TestStoredVersionsRetryAStatusRace(t *testing.T) {
	f := newFixture(t, generationCRD(), obj("a", "one"))
	raced := false
	f.ext.PrependReactor("update", "customresourcedefinitions", func(a clienttesting.Action) (bool, runtime.Object, error) {
		if a.GetSubresource() != "status" || raced {
			return false, nil, nil
		}
		raced = true
		return true, nil, apierrors.NewConflict(schema.GroupResource{Group: apiextv1.GroupName, Resource: "customresourcedefinitions"}, "crontabs."+group, errors.New("the object has been modified"))
	})
	res, err := runWith(context.Background(), f.clients(), Options{CRD: "crontabs." + group})
	if err != nil || !raced || !res.storedUpdated {
		t.Fatalf("%v, raced %v, %+v", err, raced, res)
	}
	if got := f.stored(t); !slices.Equal(got, []string{"v1"}) {
		t.Errorf("storedVersions %v, want [v1]", got)
	}
}
