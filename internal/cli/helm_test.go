package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The chart's Chart.yaml and values.yaml are the user's once written:
// regenerating, and --verify, leave the user's edits as they are, while the
// templates crdforge keeps come back when deleted or edited.
func TestHelmChartKeepsTheUsersValues(t *testing.T) {
	dir := scratchCase(t, "helm")
	args := []string{"generate", "--only", "crd,deprecation,helm", "./..."}
	if code, _, stderr := run(t, dir, args...); code != ExitOK {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	chart := chartDir(t, dir)
	rel, _ := filepath.Rel(dir, chart)
	mine := map[string]string{
		"values.yaml": "# mine\nreplicas: 5\n",
		"Chart.yaml":  "apiVersion: v2\nname: mine\nversion: 1.4.0\n",
	}
	for name, content := range mine {
		writeFile(t, filepath.Join(chart, name), []byte(content))
	}
	service := filepath.Join(chart, "templates", "service.yaml")
	if err := os.Remove(service); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := run(t, dir, args...)
	if code != ExitOK {
		t.Fatalf("regenerating over the user's values: exit %d\n%s", code, stderr)
	}
	if !strings.Contains(stderr, "wrote "+filepath.Join(rel, "templates", "service.yaml")) || strings.Contains(stderr, "values.yaml") || strings.Contains(stderr, "Chart.yaml") {
		t.Errorf("want only the deleted template written again:\n%s", stderr)
	}
	for name, content := range mine {
		if b, _ := os.ReadFile(filepath.Join(chart, name)); string(b) != content {
			t.Errorf("%s = %q, want the user's %q", name, b, content)
		}
	}
	if code, _, stderr := run(t, dir, append([]string{"generate", "--verify"}, args[1:]...)...); code != ExitOK {
		t.Errorf("--verify over the user's values: exit %d, want %d\n%s", code, ExitOK, stderr)
	}
}

// A run that names no generators writes the chart only when the project
// asks for it: helm: true in .crdforge.yaml (the --helm flag).
func TestHelmOnlyWhenAsked(t *testing.T) {
	dir := scratchCase(t, "helm")
	if code, _, stderr := run(t, dir, "generate", "./..."); code != ExitOK {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "charts")); err == nil {
		t.Fatal("a run not asked for a chart wrote one")
	}
	writeFile(t, filepath.Join(dir, ProjectFile), []byte("helm: true\n"))
	if code, _, stderr := run(t, dir, "generate", "./..."); code != ExitOK {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	chartDir(t, dir)
}

// chartDir is the one chart under dir/charts (named after the project,
// which a scratch case's directory names).
func chartDir(t *testing.T, dir string) string {
	t.Helper()
	m, _ := filepath.Glob(filepath.Join(dir, "charts", "*", "values.yaml"))
	if len(m) != 1 {
		t.Fatalf("charts with a values.yaml under %s: %v, want one", dir, m)
	}
	return filepath.Dir(m[0])
}
