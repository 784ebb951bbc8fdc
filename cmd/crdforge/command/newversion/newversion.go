// Package newversion adds an API version to a group: it copies an existing
// version's package (by default the hub's) into a sibling package named
// after the new version, rewriting what names the version (the package
// clause, the GroupVersion's "v1", conversion-gen style function names,
// the package comment) with go/ast positions, so that the copy is the same
// Go with only those tokens changed. Markers that belong to one version
// only (storage, hub, deprecated, unserved) are moved as Options say.
//
// Prepare computes every file to create and every file to edit, and
// touches nothing; Apply writes them and can undo what it wrote, so that
// the CLI can regenerate and roll back when generation fails.
package newversion

import (
	"fmt"
	"go/ast"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/crdforge/crdforge/generators/model"
	"github.com/crdforge/crdforge/internal/diag"
	"github.com/crdforge/crdforge/markers"
)

// Options say which version to add, from which, and how the versions'
// roles change. The zero value of every flag is the safe default: the new
// version is served, not the storage version and not the hub, and the old
// ones stay as they are.
type Options struct {
	New   string // the version to add, such as v2
	From  string // the version to copy; default: the hub
	Group string // the API group; needed only when several are loaded

	// Storage makes the new version the storage version (the others lose
	// +kubebuilder:storageversion). The hub stays where it was: when it was
	// the storage version implicitly, +crdforge:hub pins it there.
	Storage bool
	// Hub makes the new version the hub of conversions (+crdforge:hub on
	// its package; other +crdforge:hub markers go).
	Hub bool
	// Deprecate marks From deprecated, with Warning as the text clients
	// get, when not empty.
	Deprecate bool
	Warning   string
}

// File is a file to write: created when Old is nil, else edited.
type File struct {
	Path    string // absolute
	Content []byte
	Old     []byte // the content it replaces; nil for a new file
}

// Change is what Prepare decided.
type Change struct {
	Dir     string // the new package's directory
	FromDir string
	Files   []File // new files first, then edits, each group sorted by path
}

var versionRE = regexp.MustCompile(`^v[1-9][0-9]*((alpha|beta)[1-9][0-9]*)?$`)

// Prepare plans adding opts.New to the group loaded in m. Problems in what
// the user asked for (a version that exists, an unknown one) come back as
// diagnostics positioned at the type or package involved, or as an error
// when there is no position to give.
func Prepare(m *model.Model, opts Options) (*Change, []diag.Diagnostic, error) {
	if !versionRE.MatchString(opts.New) {
		return nil, nil, fmt.Errorf("%q is not a Kubernetes API version (v<N>, v<N>alpha<M> or v<N>beta<M>, such as v2 or v2beta1)", opts.New)
	}
	g, err := pickGroup(m, opts.Group)
	if err != nil {
		return nil, nil, err
	}
	from, err := fromVersion(g, opts)
	if err != nil {
		return nil, nil, err
	}
	fromVersions, versionDirs, diags, err := findVersions(m, g, from, opts.New)
	if err != nil || len(diags) > 0 {
		return nil, diags, err
	}
	fromDir := pkgDir(m, fromVersions[0])
	if opts.Hub {
		// Hand-written conversions of the spokes convert to the old hub;
		// generated code would no longer call them, and the tree would not
		// compile. Say where they are rather than break them.
		if diags := spokeHubConversions(m, g, opts.New); len(diags) > 0 {
			return nil, diags, nil
		}
	}
	newDir := filepath.Join(filepath.Dir(fromDir), opts.New)
	if _, err := os.Stat(newDir); err == nil {
		return nil, nil, fmt.Errorf("%s already exists: crdforge new-version never overwrites; remove it or choose another version", rel(m.Dir, newDir))
	}
	var kinds []string
	hubImplicit, fromIsHub := false, false
	// A kind's only version is its storage version without a marker; with a
	// second version beside it, it needs +kubebuilder:storageversion to stay
	// so (roleEdits.markers).
	implicitStorage := map[string]bool{}
	for _, k := range g.Kinds {
		kinds = append(kinds, k.Name)
		if k.Hub != nil && k.Hub == k.Storage && !hasMarker(pkgDir(m, k.Hub), "+crdforge:hub") {
			hubImplicit = true
		}
		if k.Storage != nil && !hasMarker(pkgDir(m, k.Storage), "+kubebuilder:storageversion") {
			implicitStorage[pkgDir(m, k.Storage)] = true
		}
		// A copy of the hub has every field the hub has: a field the hub
		// alone held (+crdforge:nocounterpart) now pairs with the copy's.
		// The marker stays with whichever of the two remains the hub,
		// where other versions still lack the field.
		if k.Hub != nil && pkgDir(m, k.Hub) == fromDir {
			fromIsHub = true
		}
	}
	c := &Change{Dir: newDir, FromDir: fromDir}
	copies, err := copyPackage(fromDir, newDir, g.Name, from, fromVersions[0].Package.PkgPath, opts, kinds, fromIsHub && !opts.Hub)
	if err != nil {
		return nil, nil, err
	}
	c.Files = append(c.Files, copies...)
	roles := roleEdits{m: m, g: g, opts: opts, kinds: kinds, fromDir: fromDir, fromIsHub: fromIsHub, hubImplicit: hubImplicit, implicitStorage: implicitStorage}
	edited, err := roles.files(versionDirs)
	if err != nil {
		return nil, nil, err
	}
	c.Files = append(c.Files, edited...)
	return c, nil, nil
}

// fromVersion is the version to copy: --from, or the hub all the group's
// kinds share.
func fromVersion(g *model.Group, opts Options) (string, error) {
	from := opts.From
	if from == "" {
		for _, k := range g.Kinds {
			if k.Hub == nil {
				return "", fmt.Errorf("kind %s has no hub version; fix crdforge generate's errors first", k.Name)
			}
			if from != "" && k.Hub.Name != from {
				return "", fmt.Errorf("the kinds of group %s have different hubs (%s, %s): say which version to copy with --from", g.Name, from, k.Hub.Name)
			}
			from = k.Hub.Name
		}
	}
	if from == opts.New {
		return "", fmt.Errorf("--from %s and the new version are the same", from)
	}
	return from, nil
}

// findVersions finds version from of every kind of g, all in one package,
// and no kind with version newVersion already; versionDirs is every
// version's package directory.
func findVersions(m *model.Model, g *model.Group, from, newVersion string) (fromVersions []*model.Version, versionDirs map[string]string, diags []diag.Diagnostic, err error) {
	errorAt := func(pos token.Pos, help, format string, args ...any) {
		diags = append(diags, diag.Diagnostic{Pos: m.Fset.Position(pos), Msg: fmt.Sprintf(format, args...),
			Notes: []diag.Note{{Kind: diag.KindHelp, Text: help}}})
	}
	versionDirs = map[string]string{}
	for _, k := range g.Kinds {
		var found *model.Version
		for _, v := range k.Versions {
			versionDirs[v.Name] = pkgDir(m, v)
			switch v.Name {
			case from:
				found = v
			case newVersion:
				errorAt(v.Pos(), "crdforge new-version adds a version that does not exist", "%s already has version %s (package %s)", k.Name, newVersion, v.Package.PkgPath)
			}
		}
		if found == nil {
			var names []string
			for _, v := range k.Versions {
				names = append(names, v.Name)
			}
			return nil, nil, diags, fmt.Errorf("kind %s of group %s has no version %s (it has %s)", k.Name, g.Name, from, strings.Join(names, ", "))
		}
		fromVersions = append(fromVersions, found)
	}
	if len(diags) > 0 {
		return nil, nil, diags, nil
	}
	fromDir := pkgDir(m, fromVersions[0])
	for _, v := range fromVersions[1:] {
		if d := pkgDir(m, v); d != fromDir {
			errorAt(v.Pos(), "crdforge new-version copies one package: move the version's kinds into one", "version %s of group %s lives in two packages (%s and %s)", from, g.Name, fromDir, d)
		}
	}
	return fromVersions, versionDirs, diags, nil
}

// spokeHubConversions are the hand-written conversions of g's spokes to
// their hub, which making newHub the hub would orphan.
func spokeHubConversions(m *model.Model, g *model.Group, newHub string) []diag.Diagnostic {
	var diags []diag.Diagnostic
	for _, k := range g.Kinds {
		if k.Hub == nil {
			continue
		}
		for _, v := range k.Versions {
			if v != k.Hub {
				diags = append(diags, hubConversions(pkgDir(m, v), k.Hub.Name, newHub)...)
			}
		}
	}
	return diags
}

// roleEdits edits the other versions' packages, where roles (storage, hub,
// deprecation) move away from them.
type roleEdits struct {
	m                      *model.Model
	g                      *model.Group
	opts                   Options
	kinds                  []string
	fromDir                string
	fromIsHub, hubImplicit bool
	// implicitStorage are the directories of storage versions no marker
	// names: kinds with one version.
	implicitStorage map[string]bool
}

// files are the edited files of the packages in versionDirs, by path.
func (r roleEdits) files(versionDirs map[string]string) ([]File, error) {
	edits := map[string]*editedFile{}
	var dirs []string
	for _, d := range versionDirs {
		if !slices.Contains(dirs, d) {
			dirs = append(dirs, d)
		}
	}
	slices.Sort(dirs)
	for _, d := range dirs {
		drop, addPkg, addTypes := r.markers(d)
		if err := editPackage(d, r.kinds, drop, addPkg, addTypes, edits); err != nil {
			return nil, err
		}
	}
	var paths []string
	for p := range edits {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	var files []File
	for _, p := range paths {
		e := edits[p]
		if e.changed() {
			out, err := e.result()
			if err != nil {
				return nil, err
			}
			files = append(files, File{Path: p, Content: out, Old: e.src})
		}
	}
	return files, nil
}

// markers are the markers to drop from the package in d, and to add to it
// and to its kinds' types.
func (r roleEdits) markers(d string) (drop, addPkg, addTypes []string) {
	if r.opts.Storage {
		drop = append(drop, "+kubebuilder:storageversion")
	} else if r.implicitStorage[d] {
		addTypes = append(addTypes, "+kubebuilder:storageversion")
	}
	if r.opts.Hub {
		drop = append(drop, "+crdforge:hub")
	}
	if d == r.fromDir && r.fromIsHub && r.opts.Hub {
		drop = append(drop, "+"+markers.NoCounterpartName)
	}
	if d == r.fromDir && r.opts.Deprecate {
		marker := "+kubebuilder:deprecatedversion"
		if r.opts.Warning != "" {
			marker += ":warning=" + quoteMarker(r.opts.Warning)
		}
		addTypes = append(addTypes, marker)
	}
	if r.opts.Storage && !r.opts.Hub && r.hubImplicit {
		// The storage version is the hub unless a marker says otherwise:
		// keep the hub, and so every hand-written conversion, where it is.
		for _, k := range r.g.Kinds {
			if k.Hub != nil && pkgDir(r.m, k.Hub) == d {
				addPkg = append(addPkg, "+crdforge:hub")
				break
			}
		}
	}
	return drop, addPkg, addTypes
}

// pickGroup is the group named, or the only one loaded.
func pickGroup(m *model.Model, name string) (*model.Group, error) {
	var names []string
	for _, g := range m.Groups {
		if g.Name == name || (name == "" && len(m.Groups) == 1) {
			return g, nil
		}
		names = append(names, g.Name)
	}
	switch {
	case len(m.Groups) == 0:
		return nil, fmt.Errorf("the packages loaded hold no API kind (+kubebuilder:object:root types in a package with +groupName)")
	case name == "":
		return nil, fmt.Errorf("the packages hold several API groups (%s): say which with --group", strings.Join(names, ", "))
	default:
		return nil, fmt.Errorf("no API group %s among the packages loaded (%s)", name, strings.Join(names, ", "))
	}
}

func pkgDir(m *model.Model, v *model.Version) string {
	return filepath.Dir(m.Fset.Position(v.Spec.Pos()).Filename)
}

// hasMarker reports whether the package in dir says marker, on
// itself or on a type.
func hasMarker(dir, marker string) bool {
	found := false
	_ = scanMarkers(dir, func(line string) {
		if line == marker {
			found = true
		}
	})
	return found
}

func rel(base, p string) string {
	if r, err := filepath.Rel(base, p); err == nil && !strings.HasPrefix(r, "..") {
		return r
	}
	return p
}

// quoteMarker quotes s as a marker's string argument.
func quoteMarker(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) + `"`
}

// hubConversions are the errors for the hand-written conversion functions
// in the package in dir that convert to or from hub (conversion-gen names
// such as Convert_v1beta1_CronTab_To_v1_CronTab).
func hubConversions(dir, hub, newHub string) []diag.Diagnostic {
	files, err := sourceFiles(dir, false)
	if err != nil {
		return []diag.Diagnostic{{Pos: token.Position{Filename: dir}, Msg: err.Error()}}
	}
	var out []diag.Diagnostic
	for _, e := range files {
		for _, d := range e.file.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Recv != nil || !strings.HasPrefix(fn.Name.Name, "Convert_") {
				continue
			}
			if parts := strings.Split(fn.Name.Name, "_"); slices.Contains(parts[1:], hub) {
				out = append(out, diag.Diagnostic{Pos: e.fset.Position(fn.Name.Pos()),
					Msg: fmt.Sprintf("%s converts to or from the hub %s", fn.Name.Name, hub),
					Notes: []diag.Note{
						{Kind: diag.KindNote, Text: "with --hub the hub becomes " + newHub},
						{Kind: diag.KindHelp, Text: fmt.Sprintf("leave the hub at %s (no --hub), or rewrite this conversion for %s after adding the version", hub, newHub)},
					}})
			}
		}
	}
	return out
}
