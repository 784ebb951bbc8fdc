package deploy

import (
	"path/filepath"
	"strings"

	"github.com/crdforge/crdforge/generators/crd"
	"github.com/crdforge/crdforge/generators/model"
)

// migrateStorageDir is the kustomize component, below the webhook's
// directory, that has the webhook migrate storage after an upgrade
// (--migrate-storage). It is opt-in, as managed-certs is: written only for
// a main generated with webhook-migrate-storage.
const migrateStorageDir = "migrate-storage"

// MigrateStorage is what the component and the Helm chart fill
// --migrate-storage's flags and RBAC from: names the generator knows.
type MigrateStorage struct {
	// MigrateState names the Lease electing the migrating replica and the
	// ConfigMap of the replicas' records.
	MigrateState string
	// MigrateCRDs are the CRDs the webhook serves, which it migrates.
	MigrateCRDs []string
	// MigrateResources are their objects, as RBAC names them.
	MigrateResources []GroupResource
	// MigrateArgs are the webhook's flags beside the usual ones.
	MigrateArgs []string
	// OwnServiceAccount is false when the managed-certs component, also
	// generated, brings the ServiceAccount both use.
	OwnServiceAccount bool
}

// GroupResource is one CRD's objects.
type GroupResource struct{ Group, Resource string }

// MigrateStorageOf is w's: the state <app>-migrate, and the CRDs of w's
// kinds.
func MigrateStorageOf(w *model.Webhook) MigrateStorage {
	ms := MigrateStorage{MigrateState: w.App + "-migrate", OwnServiceAccount: true}
	for _, k := range w.Kinds {
		c := crd.Build(k)
		ms.MigrateCRDs = append(ms.MigrateCRDs, c.Name)
		ms.MigrateResources = append(ms.MigrateResources, GroupResource{c.Spec.Group, c.Spec.Names.Plural})
	}
	ms.MigrateArgs = MigrateStorageArgs(ms.MigrateState, w.Service, ms.MigrateCRDs)
	return ms
}

// MigrateStorageArgs are the webhook's flags that migrate crds, electing
// through the Lease state, waiting for the endpoints of service; the Helm
// chart passes expressions of its values as state and service.
func MigrateStorageArgs(state, service string, crds []string) []string {
	return []string{"--migrate-storage", "--migrate-state=" + state, "--migrate-service=" + service, "--migrate-crds=" + strings.Join(crds, ",")}
}

// addMigrateStorage adds the component's files, rendered from data.
func (g Generator) addMigrateStorage(m *model.Model, data manifests, add func(p, tmpl string, data any)) {
	data.MigrateStorage = MigrateStorageOf(m.Webhook)
	data.MigrateStorage.OwnServiceAccount = !g.ManageCerts
	dir := filepath.Join(g.Dir, migrateStorageDir)
	add(filepath.Join(dir, "kustomization.yaml"), "webhook/migrate-storage.kustomization.yaml", data)
	add(filepath.Join(dir, "rbac.yaml"), "webhook/migrate-storage-rbac.yaml", data)
	add(filepath.Join(dir, "state.yaml"), "webhook/migrate-storage-state.yaml", data)
}
