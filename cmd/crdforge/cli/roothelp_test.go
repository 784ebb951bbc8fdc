package cli

import (
	"io"
	"strings"
	"testing"
)

// The root help names every command a user runs, so that `crdforge --help`
// tells the whole life of a version, not only generating it. cobra's own
// help, completion and version are left out: they explain themselves.
func TestRootHelpNamesEveryCommand(t *testing.T) {
	root := newRoot(io.Discard, io.Discard)
	for _, c := range root.Commands() {
		switch c.Name() {
		case "help", "completion", "version":
			continue
		}
		if !strings.Contains(root.Long, "crdforge "+c.Name()) {
			t.Errorf("crdforge --help does not name %q: add it to the root command's Long", "crdforge "+c.Name())
		}
	}
}
