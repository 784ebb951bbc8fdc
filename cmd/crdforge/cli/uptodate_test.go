package cli

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/crdforge/crdforge/internal/cachedir"
)

// upToDateLine is how a run that found nothing changed says so.
var upToDateLine = regexp.MustCompile(`(?m)^crdforge: up to date, nothing written \([1-9][0-9]* inputs unchanged\)$`)

// withSharedTypes is the webhook case whose v1 spec holds a type of a
// package of the same module that no pattern names: an input only
// because an API package imports it.
func withSharedTypes(t *testing.T) string {
	t.Helper()
	dir := scratchCase(t, "webhook")
	pkg := module + "/testdata/_scratch/" + filepath.Base(dir) + "/shared"
	writeFile(t, filepath.Join(dir, "shared/shared.go"), []byte("package shared\n\n// Labels are a widget's labels.\ntype Labels struct {\n\tTeam string `json:\"team,omitempty\"`\n}\n"))
	types := filepath.Join(dir, "api/v1/types.go")
	b, _ := os.ReadFile(types)
	b = []byte(strings.Replace(string(b), "import (\n", "import (\n\t\""+pkg+"\"\n", 1))
	b = []byte(strings.Replace(string(b), "\tColor string `json:\"color,omitempty\"`\n", "\tColor string `json:\"color,omitempty\"`\n\t// +optional\n\tLabels shared.Labels `json:\"labels,omitempty\"`\n", 1))
	writeFile(t, types, b)
	return dir
}

// generateTwice runs generate in dir, then again: the second run must find
// everything up to date and write nothing.
func generateTwice(t *testing.T, dir string, args ...string) {
	t.Helper()
	args = append([]string{"generate"}, args...)
	if code, _, stderr := run(t, dir, args...); code != ExitOK {
		t.Fatalf("first run: exit %d\n%s", code, stderr)
	}
	crd := filepath.Join(dir, widgetsCRD)
	old := time.Now().Add(-time.Hour)
	if err := os.Chtimes(crd, old, old); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := run(t, dir, args...)
	if code != ExitOK || !upToDateLine.MatchString(stderr) || strings.Contains(stderr, "wrote") {
		t.Fatalf("second run: exit %d, stderr:\n%s\nwant 0 and up to date", code, stderr)
	}
	if !regexp.MustCompile(largestCRD + `$`).MatchString(stderr) {
		t.Errorf("an up-to-date run does not end as the run it stands for:\n%s", stderr)
	}
	if fi, _ := os.Stat(crd); !fi.ModTime().Equal(old) {
		t.Error("an up-to-date run rewrote a file")
	}
}

func TestAnUnchangedTreeIsUpToDate(t *testing.T) {
	dir := withSharedTypes(t)
	generateTwice(t, dir, "./api/...")
	// --verify on the same inputs: up to date too, silent.
	if code, stdout, stderr := run(t, dir, "generate", "--verify", "./api/..."); code != ExitOK || stdout != "" || stderr != "" {
		t.Errorf("verify: exit %d, stdout %q, stderr %q; want 0 and nothing", code, stdout, stderr)
	}
}

// Every change to what a run depends on makes the next run a full one,
// which writes what the change changes.
func TestAChangedInputRunsInFull(t *testing.T) {
	for _, tc := range []struct {
		name   string
		change func(t *testing.T, dir string)
		args   []string
		wrote  string // a file the full run writes
	}{
		{name: "an imported package of the module", wrote: widgetsCRD, change: func(t *testing.T, dir string) {
			p := filepath.Join(dir, "shared/shared.go")
			b, _ := os.ReadFile(p)
			writeFile(t, p, []byte(strings.Replace(string(b), "}\n", "\tOwner string `json:\"owner,omitempty\"`\n}\n", 1)))
		}},
		{name: "a flag", args: []string{"--max-desc-len=0"}, wrote: widgetsCRD},
		{name: "a deleted output", wrote: widgetsCRD, change: func(t *testing.T, dir string) {
			if err := os.Remove(filepath.Join(dir, widgetsCRD)); err != nil {
				t.Fatal(err)
			}
		}},
		{name: "a hand-edited output", wrote: "api/v1/zz_generated.deepcopy.go", change: func(t *testing.T, dir string) {
			p := filepath.Join(dir, "api/v1/zz_generated.deepcopy.go")
			b, _ := os.ReadFile(p)
			writeFile(t, p, append(b, "\n// mine\n"...))
		}},
		{name: "a new version package", wrote: "api/v2/zz_generated.deepcopy.go", change: func(t *testing.T, dir string) {
			for _, name := range []string{"groupversion_info.go", "types.go"} {
				b, _ := os.ReadFile(filepath.Join(dir, "api/v1", name))
				s := strings.ReplaceAll(string(b), "package v1", "package v2")
				s = strings.ReplaceAll(s, "Package v1 is version v1", "Package v2 is version v2")
				s = strings.ReplaceAll(s, "// +kubebuilder:storageversion\n", "")
				writeFile(t, filepath.Join(dir, "api/v2", name), []byte(s))
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := withSharedTypes(t)
			generateTwice(t, dir, "./api/...")
			if tc.change != nil {
				tc.change(t, dir)
			}
			code, _, stderr := run(t, dir, append(append([]string{"generate"}, tc.args...), "./api/...")...)
			if code != ExitOK || upToDateLine.MatchString(stderr) || !strings.Contains(stderr, "wrote "+tc.wrote+"\n") {
				t.Errorf("after the change: exit %d, stderr:\n%s\nwant 0 and a full run that writes %s", code, stderr, tc.wrote)
			}
		})
	}
}

// A run that warned is up to date as well, and warns again: a warning
// does not go away because nothing changed.
func TestAnUpToDateRunRepeatsItsWarnings(t *testing.T) {
	dir := scratchCase(t, "aliases")
	code, _, first := run(t, dir, "generate", "./...")
	if code != ExitOK || !strings.Contains(first, "warning:") {
		t.Fatalf("first run: exit %d, want 0 and warnings:\n%s", code, first)
	}
	code, _, second := run(t, dir, "generate", "./...")
	if code != ExitOK || !upToDateLine.MatchString(second) {
		t.Fatalf("second run: exit %d, want 0 and up to date:\n%s", code, second)
	}
	// The diagnostics come first, before what was written and the summary.
	warnings := func(s string) string {
		return regexp.MustCompile(`(?m)^(wrote|crdforge:) `).Split(s, 2)[0]
	}
	if warnings(second) != warnings(first) {
		t.Errorf("the up-to-date run's warnings:\n%s\nthe first run's:\n%s", warnings(second), warnings(first))
	}
}

func TestCacheOffAlwaysRunsInFull(t *testing.T) {
	t.Setenv(cachedir.Env, "off")
	dir := scratchCase(t, "webhook")
	for i := range 2 {
		code, _, stderr := run(t, dir, "generate", "./...")
		if code != ExitOK || upToDateLine.MatchString(stderr) || !strings.Contains(stderr, " file(s) written") {
			t.Fatalf("run %d: exit %d, stderr:\n%s\nwant a full run", i+1, code, stderr)
		}
	}
}
