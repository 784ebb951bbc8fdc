package pipeline

import (
	"bytes"
	"go/token"
	"os"

	"github.com/crdforge/crdforge/generators/model"
	"github.com/crdforge/crdforge/internal/diag"
	"github.com/crdforge/crdforge/internal/output"
	"github.com/crdforge/crdforge/internal/settings"
)

// scaffolder is a generator whose files only get a project going (the
// webhook's main, its deployment): a project that already ships its own,
// such as Cluster API with a config/webhook of its own, needs none of them.
// Where one of its files would replace a file of the user's, the generator
// writes nothing at all (half a kustomize layout would be worse than none)
// and a warning says why, instead of the whole run failing on a file
// crdforge would refuse to overwrite anyway.
type scaffolder interface {
	Scaffold() bool
}

// dropNoter is a scaffolder with more to say when it writes nothing: what
// the rest of the output assumes of the files it would have written.
type dropNoter interface {
	DropNote(m *model.Model) (note, help string)
}

// usersFile returns the first of files that would replace a file of the
// user's: one on disk under dir that differs from what the generator
// produced and is neither crdforge's nor another generator's output.
func usersFile(dir string, files []output.File) (string, bool) {
	for _, f := range files {
		if f.Delete || f.Block || f.Owned || f.Once {
			continue
		}
		path := output.Abs(dir, f.Path)
		old, err := os.ReadFile(path)
		if err != nil || bytes.Equal(old, f.Content) || output.MayReplace(old) {
			continue
		}
		return path, true
	}
	return "", false
}

// dropScaffold empties files when g is a scaffolder and one of its files is
// the user's, and says so at that file.
func dropScaffold(dir string, m *model.Model, g Generator, files []output.File, diags *diag.List) []output.File {
	if s, ok := g.(scaffolder); !ok || !s.Scaffold() {
		return files
	}
	path, ok := usersFile(dir, files)
	if !ok {
		return files
	}
	d := diags.Add(diag.Diagnostic{Pos: token.Position{Filename: path, Line: 1, Column: 1}, Severity: diag.Warning,
		Msg: "this file is yours, so the " + g.Name() + " generator writes none of its files"}).
		Note("it has no \"Code generated\" line, and crdforge's %s generator would write here; it leaves your own %s files as they are", g.Name(), g.Name()).
		Help("move them away to get crdforge's, or leave %s out with %s", g.Name(), settings.Only.Flag())
	if n, ok := g.(dropNoter); ok {
		note, help := n.DropNote(m)
		if note != "" {
			d.Note("%s", note)
		}
		if help != "" {
			d.Help("%s", help)
		}
	}
	return nil
}
