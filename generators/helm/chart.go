package helm

import (
	"fmt"
	"go/token"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"

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
	// Project is the project's name, which the chart's holds but in a
	// kubebuilder project (ChartName).
	Project string
	// Webhook is nil when no kind converts through crdforge's webhook: a
	// chart of CRDs.
	Webhook *model.Webhook
	// Manager is, in a kubebuilder project whose CRDs convert, the manager
	// that serves their conversions; nil elsewhere. Webhook is then nil:
	// kubebuilder's chart deploys the manager, this one the CRDs.
	Manager *manager
	// Namespace is the Helm expression of the namespace of the Service the
	// CRDs convert through.
	Namespace string
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
	// ManagedCerts is, for a main generated with webhook-manage-certs, what
	// the value managedCerts renders: the webhook's --manage-certs flags and
	// the RBAC of the kustomize component managed-certs, with the Secret's
	// name a Helm expression (names.certsSecret). Nil otherwise.
	ManagedCerts *deploy.ManagedCerts
	// ManagedCertsDefault is values.yaml's first managedCerts.enabled: on
	// where cert-manager is not, as the issue of the webhook keeping its
	// own certificates asks.
	ManagedCertsDefault bool
	// MigrateStorage is, for a main generated with webhook-migrate-storage,
	// what the value migrateStorage renders, with the state's name a Helm
	// expression (names.migrateState). Nil otherwise.
	MigrateStorage *deploy.MigrateStorage
	// CallsAPI is true when a value may have the webhook call the API
	// server (managedCerts, migrateStorage): its service account and token.
	CallsAPI bool
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
	// CertsSecret names the Secret and the Lease of --manage-certs.
	CertsSecret string
	// MigrateState names the Lease and the ConfigMap of --migrate-storage.
	MigrateState string
	// CA names the CA's Certificate and Secret, CAIssuer the Issuer that
	// signs with it (deploy.CA).
	CA, CAIssuer string
}

// manager is kubebuilder's chart of the manager (kubebuilder edit
// --plugins=helm/v2-alpha), whose objects the CRDs' conversion names: the
// manager's webhook Service and its serving Certificate.
type manager struct {
	// Chart is the name of kubebuilder's chart, the project's, from which
	// that chart's names start.
	Chart string
	// Service, Certificate and Secret are the suffixes kubebuilder's chart
	// puts after its fullname, and the Certificate's Secret, as its
	// kustomize scaffolds name them.
	Service, Certificate, Secret string
}

// newManager is kubebuilder's chart of project, as kubebuilder v4's
// helm/v2-alpha plugin names its objects: <fullname>-webhook-service,
// <fullname>-serving-cert, the Secret webhook-server-cert.
func newManager(project string) *manager {
	return &manager{Chart: project, Service: "webhook-service", Certificate: "serving-cert", Secret: "webhook-server-cert"}
}

// ownsService reports whether the chart sets the namespace, name and CA of
// a CRD's conversion to svc: crdforge's webhook's chart always (it deploys
// the one webhook of every kind); the chart beside kubebuilder's, when svc
// is the manager's Service as kubebuilder's kustomize scaffolds name it,
// and not a Service a +crdforge:webhook marker names, which is the user's.
func (c chart) ownsService(svc *apiextensionsv1.ServiceReference) bool {
	if c.Manager == nil {
		return true
	}
	return svc.Name == model.KubebuilderWebhookService && svc.Namespace == model.KubebuilderWebhookNamespace
}

// ChartName is the name of m's chart: the project's, but in a kubebuilder
// project, where kubebuilder's chart of the manager has the project's name
// and the two are installed side by side, <project>-crds: the named
// templates of two charts of one name would collide under an umbrella chart.
func ChartName(m *model.Model) string {
	if m.Kubebuilder != nil {
		return m.Project + "-crds"
	}
	return m.Project
}

// newChart is the chart of m's CRDs and webhook, with the defaults the
// kustomization that the deploy generator writes has; in a kubebuilder
// project, the chart of m's CRDs converting through the manager.
func newChart(m *model.Model, image string, manageCerts, migrateStorage bool) chart {
	c := chart{Name: ChartName(m), Project: m.Project, Header: output.YAMLHeader, JSONHeader: output.JSONHeader, Namespace: "{{ .Release.Namespace }}"}
	w := m.Webhook
	if w == nil {
		return c
	}
	if m.Kubebuilder != nil {
		c.Manager = newManager(m.Kubebuilder.Name)
		c.Namespace = fmt.Sprintf(`{{ include "%s.namespace" . }}`, c.Name)
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
	if manageCerts {
		mc := deploy.ManagedCertsOf(w)
		c.Names.CertsSecret = mc.CertsSecret
		mc.CertsSecret = fmt.Sprintf(`{{ include "%s.certsSecret" . }}`, c.Name)
		mc.ManagedCertsArgs = deploy.ManagedCertsArgs(mc.CertsSecret, fmt.Sprintf(`{{ include "%s.service" . }}`, c.Name), mc.ManagedCRDs)
		c.ManagedCerts, c.ManagedCertsDefault = &mc, !c.CertManager
	}
	if migrateStorage {
		ms := deploy.MigrateStorageOf(w)
		c.Names.MigrateState = ms.MigrateState
		ms.MigrateState = fmt.Sprintf(`{{ include "%s.migrateState" . }}`, c.Name)
		ms.MigrateArgs = deploy.MigrateStorageArgs(ms.MigrateState, fmt.Sprintf(`{{ include "%s.service" . }}`, c.Name), ms.MigrateCRDs)
		c.MigrateStorage = &ms
	}
	c.CallsAPI = c.ManagedCerts != nil || c.MigrateStorage != nil
	return c
}

// templates are the chart's files under templates/ beside the CRDs: the
// webhook's objects, or, beside kubebuilder's chart, the helpers alone.
func (c chart) templates() []string {
	switch {
	case c.Manager != nil:
		return []string{"_helpers.tpl"}
	case c.Webhook != nil:
		t := []string{"_helpers.tpl", "deployment.yaml", "service.yaml", "pdb.yaml", "hpa.yaml", "serviceaccount.yaml", "networkpolicy.yaml", "certificate.yaml"}
		if c.ManagedCerts != nil {
			t = append(t, "managedcerts.yaml")
		}
		if c.MigrateStorage != nil {
			t = append(t, "migratestorage.yaml")
		}
		return t
	}
	return nil
}

// template is the name of the template of the chart's file name: beside
// kubebuilder's chart, values and helpers of their own (manager.*), which
// name the manager's objects instead of a webhook's.
func (c chart) template(name string) string {
	if c.Manager != nil && (name == "values.yaml" || name == "values.schema.json" || name == "_helpers.tpl") {
		return "helm/manager." + name
	}
	return "helm/" + name
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
