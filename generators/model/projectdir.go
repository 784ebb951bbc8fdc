package model

import (
	"go/token"
	"path"
	"path/filepath"
	"slices"

	"sigs.k8s.io/controller-tools/pkg/loader"

	"github.com/crdforge/crdforge/internal/diag"
)

// checkProjectDir catches the run from the wrong directory: crdforge run in
// api/, the directory that holds the version packages themselves, would
// write api/config and api/cmd/webhook and name the webhook's Service
// api-webhook-service in namespace api-system. It warns, naming the module
// root, and takes the default names from the directory above, where the
// run belongs: the module's name when that is the module root. A run with
// no API packages at all warns too, since it writes nothing.
func (b *Builder) checkProjectDir(diags *diag.List) {
	modDir, modPath := moduleOf(b.Roots)
	var apiDirs []string
	for _, root := range b.Roots {
		if gv, ok := b.Schemas.GroupVersions[root]; ok && gv.Group != "" && len(root.GoFiles) > 0 {
			apiDirs = append(apiDirs, filepath.Dir(root.GoFiles[0]))
		}
	}
	where := token.Position{Filename: filepath.Join(modDir, "go.mod"), Line: 1, Column: 1}
	if modDir == "" {
		where = token.Position{}
	}
	if len(apiDirs) == 0 && !b.anyGroupName() {
		diags.Add(diag.Diagnostic{Pos: where, Severity: diag.Warning,
			Msg: "no API packages in what the patterns name, so nothing is generated"}).
			Note("an API package has a +groupName marker and types with +kubebuilder:object:root=true").
			Help("run crdforge from the directory that holds api/, usually the module root %s (module %s)", modDir, modPath)
		return
	}
	if len(apiDirs) == 0 || b.Kubebuilder != nil || modDir == "" || filepath.Clean(b.Dir) == filepath.Clean(modDir) ||
		slices.ContainsFunc(apiDirs, func(d string) bool { return filepath.Dir(d) != filepath.Clean(b.Dir) }) {
		return
	}
	parent := path.Dir(b.ImportPath)
	b.Project = projectName(parent)
	diags.Add(diag.Diagnostic{Pos: where, Severity: diag.Warning,
		Msg: "crdforge runs in " + filepath.Base(b.Dir) + "/, which holds the version packages themselves"}).
		Note("config/ and cmd/webhook go below %s, while the webhook's names default to the directory above (%s-webhook-service in %s-system)", b.Dir, b.Project, b.Project).
		Help("run crdforge from the directory that holds %s/, such as the module root %s (module %s)", filepath.Base(b.Dir), modDir, modPath)
}

// anyGroupName reports whether a root carries a +groupName marker, if an
// empty one (an error reported at the marker).
func (b *Builder) anyGroupName() bool {
	for _, root := range b.Roots {
		set := b.Markers[root]
		if set == nil {
			continue
		}
		for _, file := range root.Syntax {
			if set.Find(file, "groupName").IsValid() {
				return true
			}
		}
	}
	return false
}

// moduleOf is the directory and path of the roots' main module.
func moduleOf(roots []*loader.Package) (dir, modPath string) {
	for _, r := range roots {
		if r.Module != nil && r.Module.Dir != "" {
			return r.Module.Dir, r.Module.Path
		}
	}
	return "", ""
}
