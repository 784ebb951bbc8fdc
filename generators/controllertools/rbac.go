package controllertools

import (
	"sigs.k8s.io/controller-tools/pkg/loader"
	"sigs.k8s.io/controller-tools/pkg/rbac"

	"github.com/crdforge/crdforge/generators/model"
	"github.com/crdforge/crdforge/internal/diag"
	"github.com/crdforge/crdforge/internal/output"
)

// Defaults of the RBAC generator: kubebuilder's Makefile runs
// `controller-gen rbac:roleName=manager-role`, and controller-gen writes
// into config/<generator>.
const (
	DefaultRoleName = "manager-role"
	DefaultRBACDir  = "config/rbac"
	roleFile        = "role.yaml"
)

// RBAC writes the ClusterRole (and a Role per namespace) that the
// +kubebuilder:rbac markers ask for, as controller-gen's rbac generator.
type RBAC struct {
	// Switch says whether it writes; see Switch.
	Switch Switch
	// RoleName is the ClusterRole's name, controller-gen's rbac:roleName;
	// a marker's roleName argument overrides it for its rule.
	RoleName string
	// Dir is where role.yaml goes, relative to the run's directory.
	Dir string
}

// Name is the generator's name for --only.
func (RBAC) Name() string { return "rbac" }

// Needs is the marker collector.
func (RBAC) Needs() model.Options { return needs }

// CheckFilter passes nothing: RBAC markers need no types.
func (RBAC) CheckFilter() loader.NodeFilter { return checkNothing }

// Generate runs controller-tools' rbac generator on every root.
func (g RBAC) Generate(m *model.Model, diags *diag.List) []output.File {
	if !g.Switch.writes(m) {
		return nil
	}
	return run(m, rbac.Generator{RoleName: g.RoleName}, at(g.Dir, roleFile), diags)
}

// Owns is nothing: role.yaml carries controller-gen's bytes, no header of
// crdforge's, so crdforge never deletes it; a project that drops its
// markers drops the file, as with controller-gen.
func (RBAC) Owns(*model.Model) []string { return nil }
