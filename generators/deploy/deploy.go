// Package deploy generates what runs the module's conversion webhook: a
// kustomization under config/webhook with the webhook's Namespace,
// Deployment, Service, PodDisruptionBudget, cert-manager's CA and serving
// certificate with their Issuers (ca.go), and the CRDs whose conversion
// stanzas point at that Service. `kubectl apply -k config/webhook` installs
// it all. Beside it, not in it: the ClusterRole crdforge migrate needs, and
// an opt-in component that adds a NetworkPolicy
// (config/webhook/network-policy).
package deploy

import (
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/crdforge/crdforge/generators/crd"
	"github.com/crdforge/crdforge/generators/deprecation"
	"github.com/crdforge/crdforge/generators/model"
	"github.com/crdforge/crdforge/internal/diag"
	"github.com/crdforge/crdforge/internal/output"
	"github.com/crdforge/crdforge/templates"
)

// Image is the name the Deployment's container image goes by in the
// kustomization, whose images entry replaces it with the image to run.
const Image = "webhook"

// Generator writes the webhook's kustomization into Dir.
type Generator struct {
	// Dir is where the manifests go; CRDDir is where the crd generator
	// writes the CRDs; Main is the webhook's main.go, which the Dockerfile
	// beside it builds. All are relative to the model's directory, or
	// absolute.
	Dir, CRDDir, Main string
	// WebhookImage is the image the Deployment runs, [registry/]name[:tag];
	// empty for <app>:latest.
	WebhookImage string
	// ManageCerts writes the opt-in component managed-certs, for a main
	// generated with webhook-manage-certs.
	ManageCerts bool
	// MigrateStorage writes the opt-in component migrate-storage, for a
	// main generated with webhook-migrate-storage.
	MigrateStorage bool
}

// Name is the generator's name for --only.
func (Generator) Name() string { return "deploy" }

// Needs is the module's webhook, and the strategies that say which kinds
// convert through it.
func (Generator) Needs() model.Options { return model.Options{Strategies: true, Webhook: true} }

// Owns is the manifests' directory and the CRD directory's kustomization,
// outside a kubebuilder project; in one, nothing: those directories are
// kubebuilder's.
func (g Generator) Owns(m *model.Model) []string {
	if m.Kubebuilder != nil {
		return nil
	}
	return []string{filepath.Join(g.Dir, "*.yaml"), filepath.Join(g.CRDDir, "kustomization.yaml"),
		filepath.Join(overlayDir(g.Dir), "kustomization.yaml"), filepath.Join(filepath.Dir(g.Main), "Dockerfile"),
		g.DockerIgnore(), filepath.Join(g.Dir, networkPolicyDir, "*.yaml"), filepath.Join(g.Dir, managedCertsDir, "*.yaml"),
		filepath.Join(g.Dir, migrateStorageDir, "*.yaml")}
}

// Generate returns the webhook's manifests and kustomization, or nothing
// when no kind converts through a webhook.
//
// In a kubebuilder project it returns nothing, and says so once, at the
// PROJECT file: kubebuilder scaffolded config/webhook (the manager's
// Service, its kustomization) and config/crd (the CRDs' kustomization and
// conversion patches), and those files are the user's. The manager serves
// the conversions there, through controller-runtime's handler or crdforge's
// mounted on the manager's webhook server, and the CRDs point at the
// manager's Service by default (model.KubebuilderWebhookService).
func (g Generator) Generate(m *model.Model, diags *diag.List) []output.File {
	w := m.Webhook
	if w == nil {
		return nil
	}
	if m.Kubebuilder != nil {
		warnKubebuilder(m, diags)
		return nil
	}
	dir, crdDir := g.Dir, g.CRDDir
	data := g.manifests(m)
	build := g.buildData(m, data)
	data.Dockerfile = build.Dockerfile
	var files []output.File
	failed := false
	add := func(p, tmpl string, data any) {
		content, err := render(tmpl, data)
		if err != nil {
			diags.Errorf(w.Kinds[0].Conversion.Pos, "rendering %s: %v", p, err)
			failed = true
			return
		}
		files = append(files, output.File{Path: p, Content: content})
	}

	// kustomize reads no file outside the kustomization's directory, so
	// CRDs elsewhere come in as a directory with its own kustomization.
	crdFiles := crdDirFiles(m)
	crdRef, crdInside := relPath(m.Dir, dir, crdDir)
	ownNamespace := !slices.Contains(sharedNamespaces, w.Namespace)
	if ownNamespace {
		data.Resources = append(data.Resources, "namespace.yaml")
	}
	if crdInside {
		for _, f := range crdFiles {
			data.Resources = append(data.Resources, path.Join(crdRef, f))
		}
	} else {
		data.Resources = append(data.Resources, crdRef)
		add(filepath.Join(crdDir, "kustomization.yaml"), "webhook/crds.kustomization.yaml", struct{ Resources []string }{crdFiles})
	}
	if ownNamespace {
		add(filepath.Join(dir, "namespace.yaml"), "webhook/namespace.yaml", data)
	}
	if data.CertManager {
		data.Resources = append(data.Resources, "certificate.yaml")
		add(filepath.Join(dir, "certificate.yaml"), "webhook/certificate.yaml", data)
	}
	for _, name := range []string{"service", "deployment", "pdb"} {
		data.Resources = append(data.Resources, name+".yaml")
		add(filepath.Join(dir, name+".yaml"), "webhook/"+name+".yaml", data)
	}
	add(filepath.Join(dir, MigrateRoleFile), "webhook/migrate-role.yaml", newMigrateRole(m, data.Dir))
	npKustomization, np := g.networkPolicyFiles()
	add(np, "webhook/networkpolicy.yaml", data)
	add(npKustomization, "webhook/network-policy.kustomization.yaml", data)
	if g.ManageCerts {
		g.addManagedCerts(m, data, add)
	}
	if g.MigrateStorage {
		g.addMigrateStorage(m, data, add)
	}
	add(filepath.Join(filepath.Dir(g.Main), "Dockerfile"), "webhook/Dockerfile", build)
	add(g.DockerIgnore(), "webhook/Dockerfile.dockerignore", build)
	if data.CertManager {
		overlay := data
		overlay.CertsDir = path.Join(data.Dir, "certs")
		overlay.InjectedCRDs = injectedCRDs(m)
		add(filepath.Join(overlayDir(dir), "kustomization.yaml"), "webhook/without-cert-manager.kustomization.yaml", overlay)
	}
	add(filepath.Join(dir, "kustomization.yaml"), "webhook/kustomization.yaml", data)
	if failed {
		return nil
	}
	return append(files, g.gitignore())
}

// warnKubebuilder says, at the PROJECT file of m's kubebuilder project,
// that crdforge writes no webhook deployment there, and where the CRDs
// convert instead.
func warnKubebuilder(m *model.Model, diags *diag.List) {
	kb, w := m.Kubebuilder, m.Webhook
	diags.Warnf(kb.Pos, "kubebuilder project %s: crdforge writes no webhook deployment", kb.Name).
		Note("in a kubebuilder project (layout %s), config/webhook and config/crd are kubebuilder's; crdforge writes the standalone webhook main only when go.mod requires github.com/crdforge/crdforge/webhook",
			strings.Join(kb.Layout, ", ")).
		Note("the CRDs convert through Service %s/%s, path %s (kustomize's namePrefix and namespace apply), which the manager serves",
			w.Namespace, w.Service, w.Kinds[0].Conversion.Service.Path).
		Help("see docs/kubebuilder.md, \"Adopting crdforge in a kubebuilder project\"")
}

// manifests is what the templates of m's webhook read, but for the
// resources and the overlay's fields, which Generate adds.
func (g Generator) manifests(m *model.Model) manifests {
	shown := g.Dir // in the kustomization's comment: relative, so output is the same everywhere
	if r, err := filepath.Rel(m.Dir, g.Dir); filepath.IsAbs(g.Dir) && err == nil {
		shown = r
	}
	name, tag := SplitImage(g.WebhookImage, m.Webhook.App)
	dir := filepath.ToSlash(shown)
	return manifests{Webhook: m.Webhook, Dir: dir, Base: path.Base(dir), Image: Image, ImageName: name, ImageTag: tag,
		CertManager: m.Webhook.Certificate != nil, CA: CAOf(m.Webhook), Replicas: 2, Pod: WebhookPod()}
}

// sharedNamespaces exist in every cluster and hold more than the webhook:
// the kustomization must neither label nor, on kubectl delete -k, delete them.
var sharedNamespaces = []string{"default", "kube-node-lease", "kube-public", "kube-system"}

// What the webhook binary (cmd/webhook) listens on and where it reads its
// serving certificate; its flags default to the same values.
const (
	WebhookPort = 9443
	MetricsPort = 8080
	HealthPort  = 8081
	CertDir     = "/tmp/k8s-webhook-server/serving-certs"
)

// manifests is what the webhook templates read.
type manifests struct {
	*model.Webhook
	Dir                        string
	Image, ImageName, ImageTag string
	CertManager                bool
	// CA is cert-manager's CA, which signs the serving certificate.
	CA       CA
	Replicas int
	Pod
	Resources []string
	// Dockerfile is the image's Dockerfile, from the module root.
	Dockerfile string
	// CertsDir is where crdforge certs writes; InjectedCRDs the CRDs that
	// carry cert-manager's inject-ca-from annotation.
	CertsDir     string
	InjectedCRDs []string
	// Base is the last element of Dir, which a kustomization beside it
	// names: the overlay without cert-manager, the user's own.
	Base string
	// ManagedCerts is the managed-certs component's.
	ManagedCerts
	// MigrateStorage is the migrate-storage component's.
	MigrateStorage
}

func render(name string, data any) ([]byte, error) {
	body, err := templates.Render(name, data)
	if err != nil {
		return nil, err
	}
	return append([]byte(output.YAMLHeader+"\n"), body...), nil
}

// CRDFiles are the names of the CRD files the crd generator writes, in the
// model's order.
func CRDFiles(m *model.Model) []string {
	var out []string
	for _, g := range m.Groups {
		for _, k := range g.Kinds {
			if k.Storage == nil || k.CRD == nil {
				continue // the crd generator writes nothing for it
			}
			out = append(out, CRDFile(k))
		}
	}
	return out
}

// crdDirFiles are the files of the CRD directory that kustomize applies:
// each CRD, then its deprecated fields' policy, if any, in the model's
// order.
func crdDirFiles(m *model.Model) []string {
	var out []string
	for _, g := range m.Groups {
		for _, k := range g.Kinds {
			if k.Storage == nil || k.CRD == nil {
				continue
			}
			out = append(out, CRDFile(k))
			if f := deprecation.File(k); f != "" {
				out = append(out, f)
			}
		}
	}
	return out
}

// CRDFile is the name the crd generator gives the kind's CRD file.
func CRDFile(k *model.Kind) string {
	return crd.FileName(k.CRD)
}

// relPath returns target relative to from (both relative to base, or
// absolute), slash-separated as kustomize wants it, and whether target lies
// in or below from.
func relPath(base, from, target string) (string, bool) {
	abs := func(p string) string {
		if filepath.IsAbs(p) {
			return filepath.Clean(p)
		}
		return filepath.Join(base, p)
	}
	r, err := filepath.Rel(abs(from), abs(target))
	if err != nil {
		return filepath.ToSlash(abs(target)), false
	}
	r = filepath.ToSlash(r)
	return r, r != ".." && !strings.HasPrefix(r, "../")
}

// Scaffold says the deployment only gets a project going: where a project
// has a config/webhook of its own, crdforge writes none of it.
func (Generator) Scaffold() bool { return true }
