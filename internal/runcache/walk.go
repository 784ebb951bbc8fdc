package runcache

import (
	"go/build"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// patternTrees are the directories below which a package that appears
// would be a new root of the run: for each pattern with a wildcard, the
// directory before it. An import path pattern's directory is not known
// without the go command, so it stands for the whole module of the run's
// directory: more to hash, never a hit that should have been a miss.
func patternTrees(dir string, patterns []string) []string {
	var out []string
	for _, p := range patterns {
		if !strings.Contains(p, "...") {
			continue // names one package: its directory is a PackageDir
		}
		if filepath.IsAbs(p) || build.IsLocalImport(p) {
			if !filepath.IsAbs(p) {
				p = filepath.Join(dir, p)
			}
			out = append(out, fixedDir(filepath.Clean(p)))
			continue
		}
		out = append(out, moduleRootOr(dir))
	}
	return out
}

// fixedDir is the directory a filesystem pattern starts in: its elements
// before the first with a wildcard.
func fixedDir(abs string) string {
	for d := abs; ; d = filepath.Dir(d) {
		if !strings.Contains(d, "...") {
			return d
		}
	}
}

// moduleRootOr is the directory of the go.mod nearest above dir, or dir.
func moduleRootOr(dir string) string {
	for d := dir; ; d = filepath.Dir(d) {
		if fi, err := os.Stat(filepath.Join(d, "go.mod")); err == nil && !fi.IsDir() {
			return d
		}
		if filepath.Dir(d) == d {
			return dir
		}
	}
}

// walkTree calls visit for root and every directory below it that a "..."
// wildcard reaches, as the go command matches them: not testdata, vendor,
// or a directory whose name starts with . or _. A directory with a go.mod
// of its own is walked too: crdforge's loader loads nested modules under
// "/..." (load.expand). Directories the walk cannot read are left out:
// their parent's listing still names them.
func walkTree(root string, visit func(dir string)) {
	_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if d != nil && d.IsDir() && p != root {
				return fs.SkipDir
			}
			return nil
		}
		if !d.IsDir() {
			return nil
		}
		if p != root && skipped(d.Name()) {
			return fs.SkipDir
		}
		visit(p)
		return nil
	})
}

// skipped reports whether a wildcard skips a directory of that name.
func skipped(name string) bool {
	return name == "testdata" || name == "vendor" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")
}
