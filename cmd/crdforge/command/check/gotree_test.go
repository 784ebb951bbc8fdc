package check

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/crdforge/crdforge/generators/pipeline"
)

// goModule writes files (path → content) into a new module in a temporary
// directory, with the main module's requirements so that its API packages
// load offline, and returns the directory.
func goModule(tb testing.TB, module string, files map[string]string) string {
	tb.Helper()
	dir := tb.TempDir()
	gomod, err := os.ReadFile("../../../../go.mod")
	if err != nil {
		tb.Fatal(err)
	}
	var lines []string
	for _, l := range strings.Split(string(gomod), "\n") {
		switch {
		case strings.HasPrefix(l, "module "):
			l = "module " + module
		case strings.Contains(l, "crdforge/runtime"), strings.HasPrefix(l, "tool "):
			continue
		}
		lines = append(lines, l)
	}
	gosum, err := os.ReadFile("../../../../go.sum")
	if err != nil {
		tb.Fatal(err)
	}
	all := map[string]string{"go.mod": strings.Join(lines, "\n"), "go.sum": string(gosum)}
	for name, content := range files {
		all[name] = content
	}
	for name, content := range all {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			tb.Fatal(err)
		}
	}
	return dir
}

// generateSide generates the CRDs of the Go tree in dir, failing on any
// generation error.
func generateSide(tb testing.TB, dir string) *Side {
	tb.Helper()
	side, err := Generate(pipeline.Config{Dir: dir, Patterns: []string{"./..."}})
	if err != nil {
		tb.Fatal(err)
	}
	if side.Diags.HasErrors() {
		tb.Fatalf("%s does not generate: %v", dir, side.Diags.Items())
	}
	return side
}

// compareTrees generates both trees and compares them as crdforge check
// does.
func compareTrees(tb testing.TB, oldDir, newDir string, cfg Config) *Result {
	tb.Helper()
	old, nw := generateSide(tb, oldDir), generateSide(tb, newDir)
	res, err := Compare(Input{Old: old.CRDs, New: nw.CRDs, OldLocator: old.Locator, NewLocator: nw.Locator}, cfg)
	if err != nil {
		tb.Fatal(err)
	}
	return res
}

// describe lists findings for a failure message.
func describe(res *Result) string {
	var b strings.Builder
	for _, f := range res.Findings {
		fmt.Fprintf(&b, "  %s:%d:%d %s/%s %s %s: %s\n", filepath.Base(f.Pos.Filename), f.Pos.Line, f.Pos.Column, f.Rule, f.Severity, f.Version, f.Path, f.Message)
	}
	return b.String()
}

// lineCol returns the 1-based line and column where s starts in src, which
// must hold it once.
func lineCol(tb testing.TB, src, s string) (line, col int) {
	tb.Helper()
	if strings.Count(src, s) != 1 {
		tb.Fatalf("%q is %d times in the source", s, strings.Count(src, s))
	}
	before, _, _ := strings.Cut(src, s)
	line = strings.Count(before, "\n") + 1
	col = len(before) - strings.LastIndex(before, "\n")
	return line, col
}

const groupInfo = `// Package %[1]s is version %[1]s of example.com.
// +groupName=example.com
package %[1]s
`

const rootType = `
// +kubebuilder:object:root=true
%[2]s
// Widget is a test kind.
type Widget struct {
	metav1.TypeMeta   ` + "`json:\",inline\"`" + `
	metav1.ObjectMeta ` + "`json:\"metadata,omitempty\"`" + `

	Spec WidgetSpec ` + "`json:\"spec,omitempty\"`" + `
}
`
