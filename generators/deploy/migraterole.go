package deploy

import (
	"cmp"
	"path"
	"slices"

	"github.com/crdforge/crdforge/generators/model"
)

// MigrateRoleFile is the ClusterRole crdforge migrate needs, beside the
// webhook's manifests. The kustomization does not list it: migrate is an
// operator's command, run now and then, and the role is applied and bound
// to whoever runs it (docs/migrate.md, "Permissions").
const MigrateRoleFile = "migrate-role.yaml"

// migrateRole is what webhook/migrate-role.yaml reads: the rules follow
// what cmd/crdforge/command/migrate calls.
type migrateRole struct {
	Name, Project, File string
	// CRDs are the names of the CRDs (<plural>.<group>), sorted: migrate
	// gets each, and updates its status.storedVersions, by name.
	CRDs []string
	// Groups are the CRDs' groups, sorted, each with its plurals: migrate
	// lists the objects, gets them at each served version, and updates
	// them; neither list nor a name unknown in advance can be narrowed
	// by resourceNames.
	Groups []roleGroup
}

type roleGroup struct {
	Group     string
	Resources []string
}

// newMigrateRole is the role for the kinds that have a CRD, as CRDFiles.
func newMigrateRole(m *model.Model, dir string) migrateRole {
	r := migrateRole{Name: m.Webhook.Project + "-migrate", Project: m.Webhook.Project, File: path.Join(dir, MigrateRoleFile)}
	plurals := map[string][]string{}
	for _, g := range m.Groups {
		for _, k := range g.Kinds {
			if k.Storage == nil || k.CRD == nil {
				continue
			}
			g, plural := k.CRD.Spec.Group, k.CRD.Spec.Names.Plural
			r.CRDs = append(r.CRDs, plural+"."+g) // the name the API server requires
			plurals[g] = append(plurals[g], plural)
		}
	}
	slices.Sort(r.CRDs)
	for g, res := range plurals {
		slices.Sort(res)
		r.Groups = append(r.Groups, roleGroup{Group: g, Resources: slices.Compact(res)})
	}
	slices.SortFunc(r.Groups, func(a, b roleGroup) int { return cmp.Compare(a.Group, b.Group) })
	return r
}
