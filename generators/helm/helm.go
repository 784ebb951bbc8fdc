// Package helm writes a Helm chart of the module's CRDs and their
// conversion webhook into charts/<project>: the webhook's Deployment,
// Service, PodDisruptionBudget and cert-manager objects, and the CRDs
// themselves as templates.
//
// The CRDs are templates, not files under the chart's crds/ directory,
// because Helm installs crds/ once, untemplated, and never upgrades it: a
// CRD's conversion must name the release's namespace and Service and carry
// the CA, and a new version of the API must reach the cluster with helm
// upgrade. Each CRD carries helm.sh/resource-policy: keep, so that
// helm uninstall leaves it, and every object stored in it, in place.
//
// Chart.yaml and values.yaml are written once and then belong to the user
// (output.File.Once): what the generator keeps up to date is everything
// that follows from the API (the templates, values.schema.json).
package helm

import (
	"path/filepath"

	"github.com/crdforge/crdforge/generators/model"
	"github.com/crdforge/crdforge/internal/diag"
	"github.com/crdforge/crdforge/internal/output"
)

// Generator writes the chart into Dir/<project>.
type Generator struct {
	// Dir holds the chart's directory, relative to the model's directory
	// or absolute.
	Dir string
	// WebhookImage is the image values.yaml starts with,
	// [registry/]name[:tag]; empty for <app>:latest, as the deploy
	// generator's.
	WebhookImage string
	// ManageCerts adds the value managedCerts, for a main generated with
	// webhook-manage-certs (its --manage-certs): a webhook without the
	// flag would refuse to start with it.
	ManageCerts bool
	// MigrateStorage adds the value migrateStorage, for a main generated
	// with webhook-migrate-storage (its --migrate-storage).
	MigrateStorage bool
}

// Name is the generator's name for --only.
func (Generator) Name() string { return "helm" }

// Needs is the deploy generator's: the webhook, and the strategies that say
// which CRDs convert through it.
func (Generator) Needs() model.Options { return model.Options{Strategies: true, Webhook: true} }

// ChartDir is the chart's directory.
func (g Generator) ChartDir(m *model.Model) string { return filepath.Join(g.Dir, ChartName(m)) }

// Owns is what the generator keeps up to date in the chart: the templates
// and the values' schema; never Chart.yaml or values.yaml, the user's.
func (g Generator) Owns(m *model.Model) []string {
	dir := g.ChartDir(m)
	return []string{filepath.Join(dir, "values.schema.json"), filepath.Join(dir, "templates", "*.yaml"),
		filepath.Join(dir, "templates", "_helpers.tpl"), filepath.Join(dir, crdsDir, "*.yaml")}
}

// Generate returns the chart's files: the CRDs (and their deprecated
// fields' policies) alone when no kind converts through a webhook.
//
// In a kubebuilder project the manager serves the conversions, and
// kubebuilder's own helm plugin charts the manager: the chart is then of
// the CRDs alone, converting through the manager's webhook Service as
// kubebuilder's chart names it, and is installed beside that chart with
// its CRDs off (docs/helm.md).
func (g Generator) Generate(m *model.Model, diags *diag.List) []output.File {
	c := newChart(m, g.WebhookImage, g.ManageCerts, g.MigrateStorage)
	dir := g.ChartDir(m)
	r := renderer{diags: diags, pos: firstKind(m)}
	r.add(filepath.Join(dir, "Chart.yaml"), "helm/Chart.yaml", c, true)
	r.add(filepath.Join(dir, "values.yaml"), c.template("values.yaml"), c, true)
	r.add(filepath.Join(dir, "values.schema.json"), c.template("values.schema.json"), c, false)
	for _, name := range c.templates() {
		r.add(filepath.Join(dir, "templates", name), c.template(name), c, false)
	}
	r.files = append(r.files, crdTemplates(m, c, filepath.Join(dir, crdsDir), diags)...)
	if r.failed || diags.HasErrors() {
		return nil
	}
	return r.files
}
