package cli

import (
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"
)

// TestGoModTidyHint runs crdforge generate in a module whose go.mod does not
// require what its API packages import, as a newcomer does before `go mod
// tidy`: one line that says to run it, in which module, instead of an error
// at every import.
func TestGoModTidyHint(t *testing.T) {
	dir := untidyDatabase(t)
	before := snapshot(t, dir)

	code, stdout, stderr := run(t, dir, "generate", "./...")
	if code != ExitErrors || stdout != "" {
		t.Errorf("exit %d, stdout %q; want %d and nothing", code, stdout, ExitErrors)
	}
	want := `go.mod:1:1: the module does not provide every package its code imports
  = note: the module does not require k8s.io/apimachinery/pkg/apis/meta/v1
  = note: crdforge's generated code needs github.com/crdforge/crdforge/runtime too: see docs/getting-started.md, "What your API module requires"
  = help: run ` + "`go mod tidy`" + ` in ` + dir + "\n"
	if stderr != want {
		t.Errorf("got\n%s\nwant one diagnostic\n%s", stderr, want)
	}
	if after := snapshot(t, dir); !sameFiles(before, after) {
		t.Errorf("the tree changed although generation failed")
	}
}

// TestModuleOwnPackageMissing runs crdforge generate in a module whose API
// packages import a package of the module that is not there, as API
// packages copied out of their project without a helper package they
// import are (Kyverno's api/kyverno imports its pkg/logging): the hint says
// that package is missing from the module, not that `go mod tidy` would add
// it.
func TestModuleOwnPackageMissing(t *testing.T) {
	dir := untidyDatabase(t)
	writeFile(t, filepath.Join(dir, "api", "v1", "pattern.go"), []byte("package v1\n\nimport _ \"example.com/dbop/internal/pattern\"\n"))
	code, _, stderr := run(t, dir, "generate", "./...")
	if code != ExitErrors {
		t.Errorf("exit %d, want %d", code, ExitErrors)
	}
	want := `go.mod:1:1: the module does not provide every package its code imports
  = note: the module example.com/dbop has no package example.com/dbop/internal/pattern
  = note: the module does not require k8s.io/apimachinery/pkg/apis/meta/v1
  = note: crdforge's generated code needs github.com/crdforge/crdforge/runtime too: see docs/getting-started.md, "What your API module requires"
  = help: add the package to the module (` + "`go mod tidy`" + ` cannot)
  = help: run ` + "`go mod tidy`" + ` in ` + dir + "\n"
	if stderr != want {
		t.Errorf("got\n%s\nwant\n%s", stderr, want)
	}
}

// untidyDatabase is the database case's API in a module of its own whose
// go.mod requires nothing.
func untidyDatabase(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	src, _ := filepath.Abs(filepath.Join(testdataDir, "database", "api"))
	for _, v := range []string{"v1", "v1alpha1"} {
		for _, f := range []string{"groupversion_info.go", "database_types.go"} {
			b, err := os.ReadFile(filepath.Join(src, v, f))
			if err != nil {
				t.Fatal(err)
			}
			writeFile(t, filepath.Join(dir, "api", v, f), []byte(strings.ReplaceAll(string(b), module+"/testdata/database", "example.com/dbop")))
		}
	}
	writeFile(t, filepath.Join(dir, "go.mod"), []byte("module example.com/dbop\n\ngo 1.24\n"))
	return dir
}

// TestRunFromAPIDirWarns runs crdforge generate in api/ instead of the
// directory that holds it: a warning names the module root, and the
// webhook's names come from the directory above, not from "api".
func TestRunFromAPIDirWarns(t *testing.T) {
	dir := scratchCase(t, "database")
	root, _ := filepath.Abs("../../..")
	code, stdout, stderr := run(t, filepath.Join(dir, "api"), "generate", "--verify", "./...")
	if code != ExitStale {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	want := filepath.Join(root, "go.mod") + ":1:1: warning: crdforge runs in api/, which holds the version packages themselves"
	if !strings.Contains(stderr, want) || !strings.Contains(stderr, "such as the module root "+root+" (module "+module+")") {
		t.Errorf("no warning naming the module root; want %q in\n%s", want, stderr)
	}
	project := dnsLabelForTest(filepath.Base(dir))
	if !strings.Contains(stdout, "name: "+project+"-webhook-service") || strings.Contains(stdout, "api-webhook-service") {
		t.Errorf("the Service is not named after %s, the directory above api/:\n%.3000s", project, stdout)
	}

	// From the right directory: no such warning.
	_, _, stderr = run(t, dir, "generate", "--verify", "./...")
	if strings.Contains(stderr, "holds the version packages themselves") {
		t.Errorf("warned in the right directory:\n%s", stderr)
	}
}

// TestNoAPIPackagesWarns runs crdforge generate on packages without API
// types: a warning says so and names the module root.
func TestNoAPIPackagesWarns(t *testing.T) {
	root, _ := filepath.Abs("../../..")
	dir := scratchCase(t, "database")
	writeFile(t, filepath.Join(dir, "plain", "plain.go"), []byte("package plain\n"))
	code, _, stderr := run(t, dir, "generate", "./plain/...")
	if code != ExitOK {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	if !strings.Contains(stderr, "warning: no API packages in what the patterns name") || !strings.Contains(stderr, "the module root "+root) {
		t.Errorf("no warning naming the module root:\n%s", stderr)
	}
}

// dnsLabelForTest lowercases a directory name and turns what a DNS label
// cannot hold into dashes, as the model's default names do.
func dnsLabelForTest(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		if (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') {
			b.WriteRune(r)
		} else {
			b.WriteByte('-')
		}
	}
	return strings.Trim(b.String(), "-")
}

// TestVersionOf checks what crdforge version prints for each way of
// building it.
func TestVersionOf(t *testing.T) {
	for _, tt := range []struct {
		name string
		info debug.BuildInfo
		want string
	}{
		{"go install at a tag", debug.BuildInfo{Main: debug.Module{Version: "v0.3.1"}}, "v0.3.1"},
		{"go build in a checkout", debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: []debug.BuildSetting{
			{Key: "vcs.revision", Value: "d755f3f0123456789abcdef"}, {Key: "vcs.time", Value: "2026-11-23T14:00:00Z"}, {Key: "vcs.modified", Value: "true"},
		}}, "(devel) revision d755f3f01234+dirty from 2026-11-23T14:00:00Z"},
		{"go run", debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, "(devel)"},
	} {
		if got := versionOf(&tt.info); got != tt.want {
			t.Errorf("%s: %q, want %q", tt.name, got, tt.want)
		}
	}
}
