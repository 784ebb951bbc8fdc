package pipeline

import (
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/crdforge/crdforge/internal/diag"
	"github.com/crdforge/crdforge/internal/minimums"
	"github.com/crdforge/crdforge/internal/output"
)

// requirer is a generator whose Go files import one of crdforge's lean
// modules, and so need of the module they are written into what that
// module requires.
type requirer interface {
	Requires() minimums.Needs
}

// moduleNeeds gathers, by go.mod, what the generated Go files written into
// each module need of it.
type moduleNeeds struct {
	dir    string
	byMod  map[string][]minimums.Needs
	order  []string
	goMods map[string]string // directory → its module's go.mod, "" outside one
}

func newModuleNeeds(dir string) *moduleNeeds {
	return &moduleNeeds{dir: dir, byMod: map[string][]minimums.Needs{}, goMods: map[string]string{}}
}

// add records what g's files need of their modules, when g is a requirer.
func (n *moduleNeeds) add(g Generator, files []output.File) {
	r, ok := g.(requirer)
	if !ok {
		return
	}
	needs := r.Requires()
	for _, f := range files {
		if f.Delete || !strings.HasSuffix(f.Path, ".go") {
			continue
		}
		gomod := n.goModOf(filepath.Dir(output.Abs(n.dir, f.Path)))
		if gomod == "" || slices.ContainsFunc(n.byMod[gomod], func(x minimums.Needs) bool { return x.Module == needs.Module }) {
			continue
		}
		if n.byMod[gomod] == nil {
			n.order = append(n.order, gomod)
		}
		n.byMod[gomod] = append(n.byMod[gomod], needs)
	}
}

// goModOf is the go.mod of the module that dir, which need not exist yet,
// belongs to: the nearest one in dir or above it.
func (n *moduleNeeds) goModOf(dir string) string {
	if p, ok := n.goMods[dir]; ok {
		return p
	}
	p := filepath.Join(dir, "go.mod")
	if _, err := os.Stat(p); err != nil {
		p = ""
		if parent := filepath.Dir(dir); parent != dir {
			p = n.goModOf(parent)
		}
	}
	n.goMods[dir] = p
	return p
}

// check warns, once per go.mod, where a module is below what its generated
// files need (minimums.Check).
func (n *moduleNeeds) check(diags *diag.List) {
	for _, gomod := range n.order {
		content, err := os.ReadFile(gomod)
		if err != nil {
			continue // the load read it: gone since, there is nothing to say
		}
		if d, ok := minimums.Check(gomod, content, n.byMod[gomod]); ok {
			diags.Add(d)
		}
	}
}
