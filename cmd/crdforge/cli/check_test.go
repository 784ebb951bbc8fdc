package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// checkModule writes files (path → content) into a new module in a
// temporary directory, with the main module's requirements so that the API
// packages load offline, and returns its directory.
func checkModule(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	gomod, err := os.ReadFile("../../../go.mod")
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, l := range strings.Split(string(gomod), "\n") {
		switch {
		case strings.HasPrefix(l, "module "):
			l = "module example.com/widgets"
		case strings.Contains(l, "crdforge/runtime"), strings.HasPrefix(l, "tool "):
			continue
		}
		lines = append(lines, l)
	}
	files["go.mod"] = strings.Join(lines, "\n")
	gosum, err := os.ReadFile("../../../go.sum")
	if err != nil {
		t.Fatal(err)
	}
	files["go.sum"] = string(gosum)
	writeFiles(t, dir, files)
	return dir
}

func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func gitRun(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}

const widgetGroup = `// Package v1 is version v1 of example.com.
// +groupName=example.com
package v1
`

// widgetTypes is the baseline's v1 Widget.
const widgetTypes = `package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// WidgetSpec is the desired state of a Widget.
type WidgetSpec struct {
	// Size is how big.
	// +optional
	Size int32 ` + "`json:\"size,omitempty\"`" + `

	// Color is its color.
	// +kubebuilder:validation:Enum=red;blue
	// +optional
	Color string ` + "`json:\"color,omitempty\"`" + `

	// Name names it.
	// +optional
	Name string ` + "`json:\"name,omitempty\"`" + `

	// Legacy is on its way out.
	// +optional
	Legacy string ` + "`json:\"legacy,omitempty\"`" + `
}

// +kubebuilder:object:root=true
// +kubebuilder:storageversion

// Widget is a test kind.
type Widget struct {
	metav1.TypeMeta   ` + "`json:\",inline\"`" + `
	metav1.ObjectMeta ` + "`json:\"metadata,omitempty\"`" + `

	Spec WidgetSpec ` + "`json:\"spec,omitempty\"`" + `
}
`

// widgetTypesChanged breaks the baseline: an enum value removed, a CEL rule
// added, an immutable field, Legacy removed.
var widgetTypesChanged = strings.NewReplacer(
	"+kubebuilder:validation:Enum=red;blue", "+kubebuilder:validation:Enum=red",
	"\t// Name names it.\n", "\t// Name names it.\n\t// +kubebuilder:validation:XValidation:rule=\"self == oldSelf\",message=\"name is immutable\"\n",
	"\t// Legacy is on its way out.\n\t// +optional\n\tLegacy string `json:\"legacy,omitempty\"`\n", "",
	"\t// Size is how big.\n", "\t// Size is how big.\n\t// +kubebuilder:validation:XValidation:rule=\"self <= 100\"\n",
).Replace(widgetTypes)

func runCheck(t *testing.T, dir string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	t.Chdir(dir)
	var out, errb bytes.Buffer
	code = Main(append([]string{"check"}, args...), &out, &errb)
	return out.String(), errb.String(), code
}

func TestCheckAgainstGitRevision(t *testing.T) {
	dir := checkModule(t, map[string]string{
		"api/v1/groupversion_info.go": widgetGroup,
		"api/v1/types.go":             widgetTypes,
	})
	gitRun(t, dir, "init", "-q", "-b", "main")
	gitRun(t, dir, "add", "-A")
	gitRun(t, dir, "commit", "-q", "-m", "v1")

	// Nothing changed: exit 0.
	stdout, stderr, code := runCheck(t, dir, "./...")
	if code != ExitOK {
		t.Fatalf("unchanged tree: exit %d\n%s%s", code, stdout, stderr)
	}
	if !strings.Contains(stdout, "crdforge check against") || !strings.Contains(stdout, "0 breaking") {
		t.Errorf("unchanged tree: report %q", stdout)
	}

	writeFiles(t, dir, map[string]string{"api/v1/types.go": widgetTypesChanged})
	stdout, stderr, code = runCheck(t, dir, "--against", "main", "./...")
	if code != ExitBreaking {
		t.Fatalf("breaking change: exit %d, want %d\n%s%s", code, ExitBreaking, stdout, stderr)
	}
	// Each finding at the marker it comes from in the working tree, or,
	// for the removed field, at the field in the baseline.
	for _, want := range []string{
		`api/v1/types.go:13:5: error: enum: widgets.example.com v1 ^.spec.color: allowed enum values removed : ["blue"]`,
		`api/v1/types.go:8:5: error: celRuleAdded: widgets.example.com v1 ^.spec.size: validation rule added : "self <= 100"`,
		`api/v1/types.go:18:5: error: immutabilityAdded: widgets.example.com v1 ^.spec.name: field made immutable : "self == oldSelf"`,
		`main:api/v1/types.go:22:2: error: existingFieldRemoval: widgets.example.com v1 ^.spec.legacy: removed field : v1.^.spec.legacy`,
		`main:api/v1/types.go:22:2: error: fieldDataLoss: widgets.example.com v1 ^.spec.legacy: no version holds ^.spec.legacy any more`,
		"crdforge check against main: 5 breaking (error)",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("report lacks\n  %s\nreport:\n%s", want, stdout)
		}
	}
	// One finding for the removed field, not also crdify's description and
	// type "changed" to nothing.
	for _, rule := range []string{"type", "description"} {
		if strings.Contains(stdout, "error: "+rule+": widgets.example.com v1 ^.spec.legacy") {
			t.Errorf("the removed field has a %s finding besides its removal:\n%s", rule, stdout)
		}
	}

	// The same through JSON, with positions.
	stdout, _, code = runCheck(t, dir, "--against", "main", "--output", "json", "./...")
	if code != ExitBreaking {
		t.Fatalf("json: exit %d", code)
	}
	var rep struct {
		Errors   int
		Findings []struct {
			Rule, Severity, Position string
			InBaseline               bool
		}
	}
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatalf("json: %v\n%s", err, stdout)
	}
	if rep.Errors != 5 || len(rep.Findings) != 5 {
		t.Errorf("json: %d errors, %d findings, want 5 and 5:\n%s", rep.Errors, len(rep.Findings), stdout)
	}
	for _, f := range rep.Findings {
		if f.Position == "" || f.InBaseline != strings.HasPrefix(f.Position, "main:") {
			t.Errorf("json: %s at %q, in the baseline: %v", f.Rule, f.Position, f.InBaseline)
		}
	}

	// Rules are configured once in .crdforge.yaml.
	writeFiles(t, dir, map[string]string{".crdforge.yaml": "check:\n  rules:\n    enum: warn\n    celRuleAdded: off\n"})
	stdout, _, _ = runCheck(t, dir, "--against", "main", "./...")
	if !strings.Contains(stdout, "warn: enum:") || strings.Contains(stdout, "celRuleAdded") || !strings.Contains(stdout, "3 breaking (error), 1 warning(s)") {
		t.Errorf("configured rules: report\n%s", stdout)
	}
	writeFiles(t, dir, map[string]string{".crdforge.yaml": "check:\n  rules:\n    enums: warn\n"})
	_, stderr, code = runCheck(t, dir, "--against", "main", "./...")
	if code != ExitErrors || !strings.Contains(stderr, `unknown rule "enums"`) {
		t.Errorf("unknown rule: exit %d, %q", code, stderr)
	}
	if err := os.Remove(filepath.Join(dir, ".crdforge.yaml")); err != nil {
		t.Fatal(err)
	}

	// Markdown for a pull request, SARIF for code scanning.
	stdout, _, _ = runCheck(t, dir, "--against", "main", "--output", "markdown", "./...")
	if !strings.HasPrefix(stdout, "### crdforge check: 5 breaking API change(s)") || !strings.Contains(stdout, "| ❌ error | `enum` |") {
		t.Errorf("markdown:\n%s", stdout)
	}
	stdout, _, _ = runCheck(t, dir, "--against", "main", "--output", "sarif", "./...")
	var sarif struct {
		Version string
		Runs    []struct {
			Results []struct {
				RuleID    string
				Level     string
				Locations []struct {
					PhysicalLocation *struct {
						ArtifactLocation struct{ URI string }
						Region           struct{ StartLine int }
					}
				}
			}
		}
	}
	if err := json.Unmarshal([]byte(stdout), &sarif); err != nil || sarif.Version != "2.1.0" || len(sarif.Runs) != 1 || len(sarif.Runs[0].Results) != 5 {
		t.Fatalf("sarif: %v\n%s", err, stdout)
	}
	for _, r := range sarif.Runs[0].Results {
		loc := r.Locations[0].PhysicalLocation
		if r.RuleID == "enum" && (loc == nil || loc.ArtifactLocation.URI != "api/v1/types.go" || loc.Region.StartLine != 13) {
			t.Errorf("sarif: enum at %+v", loc)
		}
	}
}

func TestCheckAgainstFiles(t *testing.T) {
	dir := checkModule(t, map[string]string{
		"api/v1/groupversion_info.go": widgetGroup,
		"api/v1/types.go":             widgetTypes,
	})
	// The baseline: the CRD crdforge generate writes.
	t.Chdir(dir)
	var out, errb bytes.Buffer
	if code := Main([]string{"generate", "--only", "crd", "./..."}, &out, &errb); code != ExitOK {
		t.Fatalf("generate: exit %d\n%s", code, errb.String())
	}
	writeFiles(t, dir, map[string]string{"api/v1/types.go": strings.Replace(widgetTypes, "Enum=red;blue", "Enum=red;blue;green", 1)})
	stdout, stderr, code := runCheck(t, dir, "--against-files", "config/crd/bases", "./...")
	if code != ExitBreaking || !strings.Contains(stdout, `api/v1/types.go:12:5: error: enum: widgets.example.com v1 ^.spec.color: allowed enum values added : ["green"]`) {
		t.Errorf("exit %d\n%s%s", code, stdout, stderr)
	}
	// Enum additions allowed, as crdify's additionPolicy: Allow.
	writeFiles(t, dir, map[string]string{".crdforge.yaml": "check:\n  enum-additions: allow\n"})
	if stdout, stderr, code := runCheck(t, dir, "--against-files", "config/crd/bases", "./..."); code != ExitOK {
		t.Errorf("enum additions allowed: exit %d\n%s%s", code, stdout, stderr)
	}
}

func TestCheckUsageAndGenerationErrors(t *testing.T) {
	dir := checkModule(t, map[string]string{
		"api/v1/groupversion_info.go": widgetGroup,
		"api/v1/types.go":             widgetTypes,
	})
	if _, stderr, code := runCheck(t, dir, "--against", "x", "--against-files", "y", "./..."); code != ExitErrors || !strings.Contains(stderr, "give one of") {
		t.Errorf("two baselines: exit %d, %q", code, stderr)
	}
	if _, stderr, code := runCheck(t, dir, "--objects", "--against-files", "y", "./..."); code != ExitErrors || !strings.Contains(stderr, "--objects reads the cluster's objects") {
		t.Errorf("--objects without a cluster: exit %d, %q", code, stderr)
	}
	if _, stderr, code := runCheck(t, dir, "--output", "xml", "./..."); code != ExitErrors || !strings.Contains(stderr, "unknown --output") {
		t.Errorf("bad format: exit %d, %q", code, stderr)
	}
	// Not a git repository, no --against.
	if _, stderr, code := runCheck(t, dir, "./..."); code != ExitErrors || !strings.Contains(stderr, "no baseline") {
		t.Errorf("no repository: exit %d, %q", code, stderr)
	}
	// The working tree does not generate: its errors, positioned, exit 2.
	writeFiles(t, dir, map[string]string{"api/v1/types.go": strings.Replace(widgetTypes, "+kubebuilder:validation:Enum=red;blue", "+kubebuilder:validation:Enum=", 1)})
	_, stderr, code := runCheck(t, dir, "--against-files", ".", "./...")
	if code != ExitErrors || !regexp.MustCompile(`api/v1/types\.go:\d+:\d+: `).MatchString(stderr) {
		t.Errorf("generation error: exit %d, %q", code, stderr)
	}
}
