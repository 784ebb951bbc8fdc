package load

import (
	"path/filepath"
	"slices"

	"golang.org/x/tools/go/packages"
)

// Sources is what of the local disk a load depends on, for a caller that
// wants to know later whether loading again would give the same result
// (crdforge generate's up-to-date check, internal/runcache) without loading.
type Sources struct {
	// PackageDirs are the directories of the roots and of every package
	// they import, directly or not, whose source is on the local disk: the
	// main module's, and those of modules a replace directive points at a
	// directory. Packages of the module cache are left out: go.mod and
	// go.sum pin them.
	PackageDirs []string
	// Files are the single files the load read or looked for: each local
	// module's go.mod and go.sum, the PROJECT files (which need not
	// exist: one appearing changes the run), and the committed CRDs, whose
	// strategies a run must not quietly change (a run that does not write
	// them, such as --only conversion, reads them all the same).
	Files []string
}

// Sources lists what the load depends on of the local disk. It reads the
// go/packages graph the load holds, so it costs no go command.
func (r *Result) Sources() Sources {
	dirs := map[string]bool{}
	files := map[string]bool{filepath.Join(r.dir, ProjectFile): true}
	packages.Visit(rawPackages(r.Roots), nil, func(p *packages.Package) {
		if p.Module == nil || !localModule(p.Module) {
			return
		}
		if d := packageDirOf(p); d != "" {
			dirs[d] = true
		}
		if p.Module.Dir != "" {
			for _, name := range []string{"go.mod", "go.sum", ProjectFile} {
				files[filepath.Join(p.Module.Dir, name)] = true
			}
		}
	})
	if r.Committed != nil {
		for _, f := range r.Committed.Files {
			files[f] = true
		}
	}
	return Sources{PackageDirs: sortedKeys(dirs), Files: sortedKeys(files)}
}

// localModule reports whether m's source is on the local disk, where it
// can change under the same go.mod: the main module, or a module replaced
// by a directory (a replacement with no version).
func localModule(m *packages.Module) bool {
	return m.Main || (m.Replace != nil && m.Replace.Version == "")
}

// packageDirOf is p's directory: the go command's, or that of its files.
func packageDirOf(p *packages.Package) string {
	if p.Dir != "" {
		return p.Dir
	}
	for _, files := range [][]string{p.GoFiles, p.CompiledGoFiles, p.IgnoredFiles, p.OtherFiles} {
		if len(files) > 0 {
			return filepath.Dir(files[0])
		}
	}
	return ""
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
