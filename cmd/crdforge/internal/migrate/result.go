package migrate

import (
	"fmt"
	"slices"
	"strings"

	apiextv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
)

// Result is what a run did: the CLI prints the two checks and the Summary.
type Result struct {
	// StorageCheck is what discovery said about the storage version, or
	// why it was not asked.
	StorageCheck string
	// ConversionCheck is what the conversion webhook check read, or why
	// there was none.
	ConversionCheck string

	crd            string
	storage        string
	storedBefore   []string // status.storedVersions before the run
	storedAfter    []string // after it (storedBefore unless it set them)
	total          int      // objects listed
	expected       int      // objects the first list page announced (remainingItemCount)
	rewritten      int      // written (or, with dryRun, would be)
	unchanged      int      // of rewritten: already at the storage version, no write happened
	skipped        int      // deleted while the run went on
	failed         int
	failures       []string // the first few failures, "ns/name: error"
	managedDropped int      // managedFields entries removed
	storedUpdated  bool
	dryRun         bool
}

func newResult(crd *apiextv1.CustomResourceDefinition, p *plan, dryRun bool) *Result {
	before := slices.Clone(crd.Status.StoredVersions)
	return &Result{crd: crd.Name, storage: p.storage, storedBefore: before, storedAfter: before, dryRun: dryRun}
}

// Summary is the one-paragraph report of a run.
func (r *Result) Summary() string {
	var b strings.Builder
	verb := "rewrote"
	if r.dryRun {
		verb = "would rewrite"
	}
	fmt.Fprintf(&b, "%s: %s %d of %d objects at %s (%d already stored there), skipped %d (deleted meanwhile), failed %d",
		r.crd, verb, r.rewritten, max(r.total, r.expected), r.storage, r.unchanged, r.skipped, r.failed)
	if r.expected > r.total {
		fmt.Fprintf(&b, "; %d listed so far", r.total)
	}
	if r.managedDropped > 0 {
		fmt.Fprintf(&b, "; dropped %d managedFields entries of unserved versions", r.managedDropped)
	}
	b.WriteString("\n")
	for _, f := range r.failures {
		fmt.Fprintf(&b, "  failed: %s\n", f)
	}
	switch {
	case r.storedUpdated:
		fmt.Fprintf(&b, "status.storedVersions: %v -> %v\n", r.storedBefore, r.storedAfter)
	case r.dryRun:
		fmt.Fprintf(&b, "status.storedVersions: %v, would become [%s] (dry run: unchanged)\n", r.storedBefore, r.storage)
	default:
		fmt.Fprintf(&b, "status.storedVersions: %v (unchanged)\n", r.storedBefore)
	}
	return b.String()
}
