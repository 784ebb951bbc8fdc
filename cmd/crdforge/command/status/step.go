package status

import (
	"fmt"
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/version"
)

// The steps of a version's life, in the order a CRD goes through them.
// Step.Name is one of these; scripts read it from --output json.
const (
	// StepWebhookDown: the conversion webhook does not answer; nothing
	// else can be done safely until it does.
	StepWebhookDown = "webhook-down"
	// StepMakeStorage: a newer version is served beside the storage one.
	StepMakeStorage = "make-storage"
	// StepMigrate: objects may still be stored at older versions.
	StepMigrate = "migrate"
	// StepStopServing: an older version is no longer stored but served.
	StepStopServing = "stop-serving"
	// StepRemove: an older version is neither stored nor served.
	StepRemove = "remove"
	// StepSettled: one version, stored and served: add the next one when
	// it is needed.
	StepSettled = "settled"
)

// Step is where the CRD is, and what to do next.
type Step struct {
	Name string `json:"name"`
	// Summary says why the CRD is at this step.
	Summary string `json:"summary"`
	// Next is the action or command that takes it to the next step.
	Next string `json:"next"`
}

// stepOf finds the first unfinished step of r's life.
func stepOf(r *Report) Step {
	if r.Webhook != nil && !r.Webhook.Answers {
		return Step{StepWebhookDown,
			"the conversion webhook does not answer: " + r.Webhook.Detail,
			"start the conversion webhook (crdforge generate wrote its deployment under config/webhook), then run crdforge status " + r.CRD + " again"}
	}
	storage := r.storage()
	if storage == nil {
		// The API server requires exactly one storage version; a report
		// made from a CRD object that is not (yet) valid gets here.
		return Step{"invalid", "no storage version", "mark one version +kubebuilder:storageversion, run crdforge generate and apply the CRD"}
	}
	if newer := r.newestServed(); newer != nil && version.CompareKubeAwareVersionStrings(storage.Name, newer.Name) < 0 {
		return Step{StepMakeStorage,
			fmt.Sprintf("%s is served but %s is still the storage version", newer.Name, storage.Name),
			fmt.Sprintf("make %s the storage version: move +kubebuilder:storageversion to %s's %s type, run crdforge generate and apply the CRD", newer.Name, newer.Name, r.Kind)}
	}
	if stale := r.Stale(); len(stale) > 0 {
		return Step{StepMigrate,
			fmt.Sprintf("%s %s still in status.storedVersions: objects may be stored at %s", strings.Join(stale, ", "), isAre(len(stale)), strings.Join(stale, ", ")),
			"crdforge migrate " + r.CRD}
	}
	var served, unserved []Version
	for _, v := range r.Versions {
		switch {
		case v.Storage:
		case v.Served:
			served = append(served, v)
		default:
			unserved = append(unserved, v)
		}
	}
	if len(served) > 0 {
		v := served[0]
		if !v.Deprecated {
			return Step{StepStopServing,
				fmt.Sprintf("no object is stored at %s any more, but it is served and not deprecated", v.Name),
				fmt.Sprintf("deprecate %s (+kubebuilder:deprecatedversion:warning=\"...\" on its %s type, crdforge generate, apply the CRD) so that clients hear of it; once they moved to %s, stop serving it (+kubebuilder:unservedversion)", v.Name, r.Kind, storage.Name)}
		}
		return Step{StepStopServing,
			fmt.Sprintf("no object is stored at %s any more; it is deprecated and still served", v.Name),
			fmt.Sprintf("once clients moved to %s, stop serving %s: +kubebuilder:unservedversion on its %s type, crdforge generate, apply the CRD", storage.Name, v.Name, r.Kind)}
	}
	if len(unserved) > 0 {
		v := unserved[0]
		return Step{StepRemove,
			fmt.Sprintf("%s is neither served nor stored: it can go", v.Name),
			fmt.Sprintf("delete %s's package, run crdforge generate and apply the CRD", v.Name)}
	}
	return Step{StepSettled,
		fmt.Sprintf("%s is the only version, and the only one stored", storage.Name),
		"nothing; when the API needs a new version: crdforge new-version <version>"}
}

func isAre(n int) string {
	if n == 1 {
		return "is"
	}
	return "are"
}

func (r *Report) storage() *Version {
	for i := range r.Versions {
		if r.Versions[i].Storage {
			return &r.Versions[i]
		}
	}
	return nil
}

// newestServed is the served version of the highest Kubernetes version
// priority (v2 > v1 > v1beta2 > v1alpha1), not deprecated when one is not.
func (r *Report) newestServed() *Version {
	var best *Version
	for i := range r.Versions {
		v := &r.Versions[i]
		if !v.Served {
			continue
		}
		if best == nil || (best.Deprecated && !v.Deprecated) ||
			(best.Deprecated == v.Deprecated && version.CompareKubeAwareVersionStrings(best.Name, v.Name) < 0) {
			best = v
		}
	}
	return best
}

// Stale lists the versions of status.storedVersions other than the storage
// version, in their order there.
func (r *Report) Stale() []string {
	s := r.storage()
	return slices.DeleteFunc(slices.Clone(r.StoredVersions), func(v string) bool { return s != nil && v == s.Name })
}
