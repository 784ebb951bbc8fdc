// Package crdstrategy does what kube-apiserver's registry strategy for
// CustomResourceDefinitions does to a CRD before and beside validating it,
// on create and on update: the status and generation it sets and the
// warnings it gives. The validation itself is apiextensions-apiserver's
// (validation.ValidateCustomResourceDefinition and
// ValidateCustomResourceDefinitionUpdate), called as the strategy calls it.
//
// Why not the strategy itself: its package
// (k8s.io/apiextensions-apiserver/pkg/registry/customresourcedefinition) is
// also the CRDs' etcd storage, and importing it builds the etcd client,
// client-go's typed clientset, informers, listers and apply configurations
// into crdforge: some 340 packages, a quarter of the binary's, for the few
// lines below. A test holds this package equal to the strategy on every CRD
// the goldens and examples hold, so a new apiextensions-apiserver that
// changes the strategy fails it rather than drifting.
package crdstrategy

import (
	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiequality "k8s.io/apimachinery/pkg/api/equality"
)

// PrepareForCreate clears what a user may not set on a new CRD, as the
// strategy does: the status, but for the storage version as the one stored,
// and the generation, which starts at 1.
//
// The strategy also drops fields whose feature gates are off. At the
// apiextensions-apiserver crdforge builds with, two of those gates
// (CRDValidationRatcheting, CustomResourceFieldSelectors) are GA and locked
// on, and the third (CRDObservedGenerationTracking) only drops status
// fields, which create has just cleared and update copies from the old
// object: there is nothing for it to drop.
func PrepareForCreate(crd *apiextensions.CustomResourceDefinition) {
	crd.Status = apiextensions.CustomResourceDefinitionStatus{}
	crd.Generation = 1
	addStorageVersion(crd)
}

// PrepareForUpdate makes nw, an update of old, what the strategy makes it:
// old's status, with the storage version added to the stored ones, and a
// generation one above old's when the spec changed.
func PrepareForUpdate(nw, old *apiextensions.CustomResourceDefinition) {
	nw.Status = old.Status
	if !apiequality.Semantic.DeepEqual(old.Spec, nw.Spec) {
		nw.Generation = old.Generation + 1
	}
	addStorageVersion(nw)
}

// addStorageVersion records crd's storage version as stored.
func addStorageVersion(crd *apiextensions.CustomResourceDefinition) {
	for _, v := range crd.Spec.Versions {
		if v.Storage {
			if !apiextensions.IsStoredVersion(crd, v.Name) {
				crd.Status.StoredVersions = append(crd.Status.StoredVersions, v.Name)
			}
			return
		}
	}
}
