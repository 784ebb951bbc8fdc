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

	// The cluster engine's run.
	engine     string // EngineClient or EngineCluster: the one that ran
	fallback   string // why auto fell back to the client engine
	svmAPI     string // storagemigration.k8s.io/v1, ...
	svmName    string
	svmAdopted bool   // followed a migration that was already pending
	svmOutcome string // Succeeded: message, or Failed (reason): message
	storedBy   string // who set storedVersions: "the migrator" or "crdforge"
}

func newResult(crd *apiextv1.CustomResourceDefinition, p *plan, dryRun bool) *Result {
	before := slices.Clone(crd.Status.StoredVersions)
	return &Result{crd: crd.Name, storage: p.storage, storedBefore: before, storedAfter: before, dryRun: dryRun}
}

// Summary is the one-paragraph report of a run.
func (r *Result) Summary() string {
	if r.engine == EngineCluster {
		return r.clusterSummary()
	}
	var b strings.Builder
	if r.fallback != "" {
		fmt.Fprintf(&b, "engine: client (%s)\n", r.fallback)
	}
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

// clusterSummary is Summary for a run of the cluster's migrator.
func (r *Result) clusterSummary() string {
	var b strings.Builder
	how := "created"
	if r.svmAdopted {
		how = "followed the pending"
	}
	fmt.Fprintf(&b, "engine: cluster (%s %s StorageVersionMigration %s)\n", how, r.svmAPI, r.svmName)
	fmt.Fprintf(&b, "%s: the migrator moved %d of %d objects to %s", r.crd, r.rewritten, r.total, r.storage)
	if r.svmOutcome != "" {
		fmt.Fprintf(&b, "; %s", r.svmOutcome)
	}
	b.WriteString("\n")
	if r.managedDropped > 0 || r.failed > 0 {
		fmt.Fprintf(&b, "managedFields: dropped %d entries of unserved versions, failed %d objects\n", r.managedDropped, r.failed)
	}
	for _, f := range r.failures {
		fmt.Fprintf(&b, "  failed: %s\n", f)
	}
	switch {
	case r.dryRun:
		fmt.Fprintf(&b, "status.storedVersions: %v, would become [%s] (dry run: unchanged)\n", r.storedBefore, r.storage)
	case r.storedBy != "":
		fmt.Fprintf(&b, "status.storedVersions: %v -> %v (set by %s)\n", r.storedBefore, r.storedAfter, r.storedBy)
	default:
		fmt.Fprintf(&b, "status.storedVersions: %v (unchanged)\n", r.storedAfter)
	}
	return b.String()
}
