// Package storagemigrate moves the stored objects of a CustomResourceDefinition
// to its storage version and then trims its status.storedVersions: the one
// implementation that crdforge migrate (the command a person runs) and the
// webhook's --migrate-storage (webhook/automigrate, run by the elected
// replica after an upgrade) share.
//
// It works through client-go's dynamic client only, CRDs included, so that
// the webhook module links neither apiextensions-apiserver nor a typed
// clientset; a webhook whose main does not enable --migrate-storage links
// none of it (webhook/imports_test.go).
//
// The steps, each in a file: plan.go reads what to do from the CRD;
// objects.go lists every object page by page and writes each back
// unchanged (the API server stores it at the storage version), dropping the
// managedFields entries of versions no longer served (managedfields.go), with
// retries (retry.go); storedversions.go then sets status.storedVersions to
// the storage version alone, after checking that the CRD did not change
// meanwhile. Every write is idempotent: after an interruption, run again.
package storagemigrate
