package controllertools

import (
	"sigs.k8s.io/controller-tools/pkg/loader"
	"sigs.k8s.io/controller-tools/pkg/webhook"

	"github.com/crdforge/crdforge/generators/model"
	"github.com/crdforge/crdforge/internal/diag"
	"github.com/crdforge/crdforge/internal/output"
)

// Where the admission generator writes, as controller-gen's webhook
// generator does by default.
const (
	DefaultAdmissionDir = "config/webhook"
	admissionFile       = "manifests.yaml"
)

// Admission writes the MutatingWebhookConfiguration and
// ValidatingWebhookConfiguration that the +kubebuilder:webhook markers
// declare, as controller-gen's webhook generator. Its name is not
// "webhook": that is crdforge's conversion webhook's generator.
type Admission struct {
	// Switch says whether it writes; see Switch.
	Switch Switch
	// Dir is where manifests.yaml goes, relative to the run's directory.
	Dir string
}

// Name is the generator's name for --only.
func (Admission) Name() string { return "admission" }

// Needs is the marker collector.
func (Admission) Needs() model.Options { return needs }

// CheckFilter passes nothing: webhook markers need no types.
func (Admission) CheckFilter() loader.NodeFilter { return checkNothing }

// Generate runs controller-tools' webhook generator on every root.
func (g Admission) Generate(m *model.Model, diags *diag.List) []output.File {
	if !g.Switch.writes(m) {
		return nil
	}
	return run(m, webhook.Generator{}, at(g.Dir, admissionFile), diags)
}

// Owns is nothing, as for RBAC: the file is controller-gen's bytes.
func (Admission) Owns(*model.Model) []string { return nil }
