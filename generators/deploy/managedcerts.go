package deploy

import (
	"path/filepath"
	"strings"

	"github.com/crdforge/crdforge/generators/crd"
	"github.com/crdforge/crdforge/generators/model"
)

// managedCertsDir is the kustomize component, below the webhook's
// directory, that has the webhook keep its own certificates
// (--manage-certs). It is opt-in, as the NetworkPolicy's is: the main must
// be generated with webhook-manage-certs (only then is it written), and the
// cluster may have cert-manager, which the webhook's kustomization uses.
const managedCertsDir = "managed-certs"

// ManagedCerts is what the component and the Helm chart fill --manage-certs'
// flags and RBAC from: names the generator knows, nothing read from a
// cluster.
type ManagedCerts struct {
	// CertsSecret names the Secret and the Lease.
	CertsSecret string
	// ManagedCRDs are the CRDs the webhook serves, whose caBundle it writes.
	ManagedCRDs []string
	// ManagedCertsArgs are the webhook's flags beside the usual ones.
	ManagedCertsArgs []string
}

// ManagedCertsOf is w's: the Secret <app>-certs, apart from the one
// cert-manager or crdforge certs writes, and the CRDs of w's kinds.
func ManagedCertsOf(w *model.Webhook) ManagedCerts {
	mc := ManagedCerts{CertsSecret: w.App + "-certs"}
	for _, k := range w.Kinds {
		mc.ManagedCRDs = append(mc.ManagedCRDs, crd.Build(k).Name)
	}
	mc.ManagedCertsArgs = ManagedCertsArgs(mc.CertsSecret, w.Service, mc.ManagedCRDs)
	return mc
}

// ManagedCertsArgs are the webhook's flags that keep its certificates in
// the Secret secret, for the Service service and the CRDs crds; the Helm
// chart passes expressions of its values as secret and service.
func ManagedCertsArgs(secret, service string, crds []string) []string {
	return []string{"--manage-certs", "--certs-secret=" + secret, "--certs-service=" + service, "--certs-crds=" + strings.Join(crds, ",")}
}

// addManagedCerts adds the component's files, rendered from data.
func (g Generator) addManagedCerts(m *model.Model, data manifests, add func(p, tmpl string, data any)) {
	data.ManagedCerts = ManagedCertsOf(m.Webhook)
	data.InjectedCRDs = injectedCRDs(m)
	kustomization, rbac, state := g.managedCertsFiles()
	add(kustomization, "webhook/managed-certs.kustomization.yaml", data)
	add(rbac, "webhook/managed-certs-rbac.yaml", data)
	add(state, "webhook/managed-certs-state.yaml", data)
}

// managedCertsFiles are the component's files: its kustomization, the RBAC
// and the empty Secret and Lease.
func (g Generator) managedCertsFiles() (kustomization, rbac, state string) {
	dir := filepath.Join(g.Dir, managedCertsDir)
	return filepath.Join(dir, "kustomization.yaml"), filepath.Join(dir, "rbac.yaml"), filepath.Join(dir, "state.yaml")
}
