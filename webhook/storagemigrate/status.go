package storagemigrate

import (
	"encoding/json"
	"time"
)

// StatusAnnotation is the annotation of a CRD in which the webhook's
// --migrate-storage records where its migration is; crdforge status
// reads it. JSON of Status.
const StatusAnnotation = "crdforge.io/storage-migration"

// The phases of a Status.
const (
	// PhaseWaiting: storedVersions hold other versions, and not every ready
	// replica of the webhook converts every version yet.
	PhaseWaiting = "Waiting"
	// PhaseRunning: the objects are being rewritten.
	PhaseRunning = "Running"
	// PhaseFailed: an object could not be rewritten (a conversion failed,
	// say); storedVersions were left alone. It is tried again later.
	PhaseFailed = "Failed"
	// PhaseSucceeded: every object is stored at Storage, and storedVersions
	// are [Storage].
	PhaseSucceeded = "Succeeded"
)

// Status is a migration's state, as StatusAnnotation holds it.
type Status struct {
	Phase   string `json:"phase"`
	Storage string `json:"storage"`
	// From are the storedVersions the migration started from.
	From []string `json:"from,omitempty"`
	// Rewritten and Failed count objects of the last pass.
	Rewritten int `json:"rewritten"`
	Failed    int `json:"failed"`
	// Message says why it waits or failed, or what it did.
	Message string    `json:"message,omitempty"`
	Time    time.Time `json:"time"`
}

// ReadStatus reads the Status of a CRD's annotations; ok is false when there
// is none, or it does not parse.
func ReadStatus(annotations map[string]string) (s Status, ok bool) {
	v, found := annotations[StatusAnnotation]
	if !found {
		return s, false
	}
	return s, json.Unmarshal([]byte(v), &s) == nil
}
