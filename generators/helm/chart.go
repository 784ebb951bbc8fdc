package helm

import (
	"go/token"

	"github.com/crdforge/crdforge/generators/deploy"
	"github.com/crdforge/crdforge/generators/model"
	"github.com/crdforge/crdforge/internal/diag"
	"github.com/crdforge/crdforge/internal/output"
	"github.com/crdforge/crdforge/templates"
)

// chart is what the chart's templates (templates/helm) read.
type chart struct {
	// Name is the chart's, the project's: it prefixes the named templates
	// of _helpers.tpl, which share one namespace with every subchart's.
	Name string
	// Webhook is nil when no kind converts through one: a chart of CRDs.
	Webhook *model.Webhook
	// Header and JSONHeader mark the files crdforge keeps.
	Header, JSONHeader string
	// ImageName and ImageTag are values.yaml's first image; AppVersion
	// Chart.yaml's.
	ImageName, ImageTag, AppVersion string
	Replicas                        int
	// MaxReplicas and TargetCPU are values.yaml's first autoscaling
	// ceiling and CPU target; its floor is Replicas.
	MaxReplicas, TargetCPU int
	// CertManager is values.yaml's first certManager.enabled: on when the
	// API's markers ask for CA injection, as the kustomization has it.
	CertManager bool
	// Names are the webhook's objects' default names.
	Names names
	// CA is cert-manager's CA, whose names are Names' defaults.
	CA deploy.CA
	// The webhook's pod: deploy's, which the shared pod templates read.
	// Its securityContexts are also values.yaml's first podSecurityContext
	// and securityContext, and the templates' fallback.
	deploy.Pod
}

// names are the webhook's objects' names, none of them with a namespace.
type names struct {
	Deployment, Service, Secret, Certificate, Issuer string
	// CA names the CA's Certificate and Secret, CAIssuer the Issuer that
	// signs with it (deploy.CA).
	CA, CAIssuer string
}

// newChart is the chart of m's CRDs and webhook, with the defaults the
// kustomization that the deploy generator writes has.
func newChart(m *model.Model, image string) chart {
	c := chart{Name: m.Project, Header: output.YAMLHeader, JSONHeader: output.JSONHeader}
	w := m.Webhook
	if w == nil {
		return c
	}
	c.Webhook = w
	c.ImageName, c.ImageTag = deploy.SplitImage(image, w.App)
	c.AppVersion = c.ImageTag
	if c.AppVersion == "" {
		c.AppVersion = "latest" // a digest: the chart still needs a version of the app to show
	}
	c.Replicas, c.CertManager = 2, w.Certificate != nil
	c.MaxReplicas, c.TargetCPU = 6, 80
	ca := deploy.CAOf(w)
	c.Names = names{Deployment: w.App, Service: w.Service, Secret: w.SecretName, Certificate: w.Service + "-cert", Issuer: w.Issuer,
		CA: ca.Name, CAIssuer: ca.Issuer}
	c.CA = ca
	if w.Certificate != nil {
		c.Names.Certificate = w.Certificate.Name
	}
	c.Pod = deploy.WebhookPod()
	return c
}

// renderer gathers the rendered files, and says at pos whatever a
// template fails on (a bug of crdforge's: the templates are its own).
type renderer struct {
	diags  *diag.List
	pos    token.Pos
	files  []output.File
	failed bool
}

// firstKind is the position of the model's first kind's conversion, where
// a problem of the whole chart is reported.
func firstKind(m *model.Model) token.Pos {
	for _, g := range m.Groups {
		for _, k := range g.Kinds {
			return k.Conversion.Pos
		}
	}
	return token.NoPos
}

// add renders the template tmpl into path; once marks a file the user owns
// from its first writing on.
func (r *renderer) add(path, tmpl string, data any, once bool) {
	content, err := templates.Render(tmpl, data)
	if err != nil {
		r.diags.Errorf(r.pos, "rendering %s: %v", path, err)
		r.failed = true
		return
	}
	r.files = append(r.files, output.File{Path: path, Content: content, Once: once})
}
