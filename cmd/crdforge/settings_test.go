package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/crdforge/crdforge/cmd/crdforge/cli"
)

// flagInText finds "--name" in a string, the way help and errors write a
// flag.
var flagInText = regexp.MustCompile(`(?:^|[^-\w])--([a-z][a-z0-9-]*)`)

// TestNoFlagNamedBelowTheCLI fails on a string literal under generators/ or
// internal/ that writes out one of crdforge's flags: a setting is named there
// through internal/settings, which the CLI defines its flags from, so that a
// renamed flag leaves no stale hint in a diagnostic.
func TestNoFlagNamedBelowTheCLI(t *testing.T) {
	flags := crdforgeFlags(cli.Command())
	for _, dir := range []string{"generators", "internal"} {
		for _, lit := range stringLiterals(t, filepath.Join("../..", dir)) {
			for _, m := range flagInText.FindAllStringSubmatch(lit.text, -1) {
				if flags[m[1]] {
					t.Errorf("%s: --%s is crdforge's flag: name it through internal/settings", lit.pos, m[1])
				}
			}
		}
	}
}

// crdforgeFlags is the name of every flag of every command under root.
func crdforgeFlags(root *cobra.Command) map[string]bool {
	out := map[string]bool{}
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		c.LocalFlags().VisitAll(func(f *pflag.Flag) { out[f.Name] = true })
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
	return out
}

type literal struct {
	pos  token.Position
	text string
}

// stringLiterals are the string literals of the Go files under root, tests
// and testdata aside.
func stringLiterals(t *testing.T, root string) []literal {
	t.Helper()
	fset := token.NewFileSet()
	var out []literal
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return err
		case d.IsDir() && d.Name() == "testdata":
			return filepath.SkipDir
		case d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go"):
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if lit, ok := n.(*ast.BasicLit); ok && lit.Kind == token.STRING {
				if s, err := strconv.Unquote(lit.Value); err == nil {
					out = append(out, literal{fset.Position(lit.Pos()), s})
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}
