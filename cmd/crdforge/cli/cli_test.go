package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/crdforge/crdforge/internal/cachedir"
	"github.com/crdforge/crdforge/internal/output"
)

// scratchCase copies a testdata case, without its want/, into a scratch
// directory inside the module (so that its imports resolve) and returns it.
func scratchCase(t *testing.T, name string) string {
	t.Helper()
	src, _ := filepath.Abs(filepath.Join(testdataDir, name))
	base, _ := filepath.Abs(filepath.Join(testdataDir, "_scratch"))
	if err := os.MkdirAll(base, 0o755); err != nil {
		t.Fatal(err)
	}
	dst, err := os.MkdirTemp(base, strings.ReplaceAll(t.Name(), "/", "_")+"-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := os.RemoveAll(dst); err != nil {
			t.Error(err)
		}
		// testdata/_scratch goes too, once the last case in it is gone.
		if rest, err := os.ReadDir(base); err == nil && len(rest) == 0 {
			if err := os.Remove(base); err != nil {
				t.Error(err)
			}
		}
	})
	err = filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		r, _ := filepath.Rel(src, p)
		if d.IsDir() {
			if d.Name() == "want" {
				return filepath.SkipDir
			}
			return os.MkdirAll(filepath.Join(dst, r), 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		// Hand-written files import the case's own packages by path.
		b = bytes.ReplaceAll(b, []byte(module+"/testdata/"+name+"/"), []byte(module+"/testdata/_scratch/"+filepath.Base(dst)+"/"))
		return os.WriteFile(filepath.Join(dst, r), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

const module = "github.com/crdforge/crdforge"

const widgetsCRD = "config/crd/bases/example.com_widgets.yaml"

// largestCRD is the line after the summary of a run whose CRDs are all
// small: the largest one's size.
const largestCRD = `crdforge: largest CRD: example.com_widgets.yaml, [0-9.]+ KiB of the 256 KiB client-side kubectl apply can store\n`

func TestGenerateWritesOnlyWhatChanged(t *testing.T) {
	dir := scratchCase(t, "webhook")

	code, _, stderr := run(t, dir, "generate", "./...")
	if code != ExitOK {
		t.Fatalf("first run: exit %d\n%s", code, stderr)
	}
	for _, f := range []string{widgetsCRD, "api/v1/zz_generated.deepcopy.go", "api/v1beta1/zz_generated.deepcopy.go"} {
		if !strings.Contains(stderr, "wrote "+f) {
			t.Errorf("first run did not report writing %s:\n%s", f, stderr)
		}
	}
	crd := filepath.Join(dir, widgetsCRD)
	old := time.Now().Add(-time.Hour)
	if err := os.Chtimes(crd, old, old); err != nil {
		t.Fatal(err)
	}

	if !regexp.MustCompile(`\ncrdforge: [1-9][0-9]* file\(s\) written, 0 unchanged, 0 removed\n` + largestCRD + `$`).MatchString(stderr) {
		t.Errorf("first run does not end with its summary:\n%s", stderr)
	}

	// A full run, not the up-to-date check's shortcut: with nothing to
	// write, it writes nothing.
	t.Setenv(cachedir.Env, "off")
	code, _, stderr = run(t, dir, "generate", "./...")
	if code != ExitOK || !regexp.MustCompile(`^crdforge: 0 file\(s\) written, [1-9][0-9]* unchanged, 0 removed\n`+largestCRD+`$`).MatchString(stderr) {
		t.Fatalf("second run: exit %d, stderr %q; want 0, nothing written and only the summary", code, stderr)
	}
	if fi, _ := os.Stat(crd); !fi.ModTime().Equal(old) {
		t.Errorf("an unchanged file was rewritten")
	}
	if leftovers, _ := filepath.Glob(filepath.Join(dir, "config/crd/bases/.*")); len(leftovers) > 0 {
		t.Errorf("temporary files left behind: %v", leftovers)
	}
}

func TestVerify(t *testing.T) {
	dir := scratchCase(t, "webhook")
	if code, _, stderr := run(t, dir, "generate", "./..."); code != ExitOK {
		t.Fatalf("generate: exit %d\n%s", code, stderr)
	}
	if code, stdout, stderr := run(t, dir, "generate", "--verify", "./..."); code != ExitOK || stdout != "" {
		t.Fatalf("verify of fresh output: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}

	crd := filepath.Join(dir, widgetsCRD)
	good, _ := os.ReadFile(crd)
	stale := bytes.Replace(good, []byte("port: 8443"), []byte("port: 9443"), 1)
	writeFile(t, crd, stale)
	if err := os.Remove(filepath.Join(dir, "api/v1/zz_generated.deepcopy.go")); err != nil {
		t.Fatal(err)
	}

	code, stdout, stderr := run(t, dir, "generate", "--verify", "./...")
	if code != ExitStale {
		t.Fatalf("verify of stale output: exit %d, want %d\n%s", code, ExitStale, stderr)
	}
	for _, want := range []string{
		"--- a/" + widgetsCRD, "+++ b/" + widgetsCRD, "-          port: 9443", "+          port: 8443",
		"--- /dev/null", "+++ b/api/v1/zz_generated.deepcopy.go",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("diff lacks %q:\n%s", want, stdout)
		}
	}
	if now, _ := os.ReadFile(crd); !bytes.Equal(now, stale) {
		t.Errorf("--verify wrote to %s", widgetsCRD)
	}
	if _, err := os.Stat(filepath.Join(dir, "api/v1/zz_generated.deepcopy.go")); err == nil {
		t.Errorf("--verify created a file")
	}

	// The diff is what --verify is for: one that cannot be printed is an
	// error, not a stale tree.
	var errOut bytes.Buffer
	if code := Main([]string{"generate", "--verify", "./..."}, brokenWriter{}, &errOut); code != ExitErrors || !strings.Contains(errOut.String(), "writing the diff") {
		t.Errorf("verify to a broken stdout: exit %d, want %d and why\n%s", code, ExitErrors, &errOut)
	}
}

// brokenWriter fails every write, as a closed pipe does.
type brokenWriter struct{}

func (brokenWriter) Write([]byte) (int, error) { return 0, errors.New("broken pipe") }

func TestRefusesToOverwriteHandWrittenFiles(t *testing.T) {
	dir := scratchCase(t, "webhook")
	mine := []byte("# my own CRD, hand-written\napiVersion: apiextensions.k8s.io/v1\n")
	writeFile(t, filepath.Join(dir, widgetsCRD), mine)

	code, _, stderr := run(t, dir, "generate", "./...")
	if code != ExitErrors {
		t.Fatalf("exit %d, want %d", code, ExitErrors)
	}
	if !strings.Contains(stderr, widgetsCRD+": refusing to overwrite") {
		t.Errorf("stderr does not name the file:\n%s", stderr)
	}
	if now, _ := os.ReadFile(filepath.Join(dir, widgetsCRD)); !bytes.Equal(now, mine) {
		t.Errorf("the hand-written file was changed")
	}
	if _, err := os.Stat(filepath.Join(dir, "api/v1/zz_generated.deepcopy.go")); err == nil {
		t.Errorf("other files were written although the run failed")
	}
}

// TestLeavesAProjectsOwnWebhookDeployment: a project that ships its own
// config/webhook (Cluster API does) gets everything else generated, none of
// crdforge's deployment (not half a kustomize layout), a warning at its file,
// and its files untouched; the webhook's main, not in the way, still comes.
func TestLeavesAProjectsOwnWebhookDeployment(t *testing.T) {
	dir := scratchCase(t, "webhook")
	service := filepath.Join(dir, "config", "webhook", "service.yaml")
	mine := []byte("# our own webhook Service\napiVersion: v1\nkind: Service\n")
	writeFile(t, service, mine)

	code, _, stderr := run(t, dir, "generate", "./...")
	if code != ExitOK {
		t.Fatalf("exit %d, want %d\n%s", code, ExitOK, stderr)
	}
	if !strings.Contains(stderr, "config/webhook/service.yaml:1:1: warning: this file is yours") ||
		!strings.Contains(stderr, "deploy generator") {
		t.Errorf("no warning at the user's file:\n%s", stderr)
	}
	// The markers name the Service and the Certificate: nothing to add.
	if !strings.Contains(stderr, "the CRDs convert through Service widgets/widget-conversion (port 8443, path /convert-widgets)\n") {
		t.Errorf("the warning does not name the Service the CRDs convert through, or asks for more:\n%s", stderr)
	}
	if now, _ := os.ReadFile(service); !bytes.Equal(now, mine) {
		t.Errorf("the project's own service.yaml was changed")
	}
	for _, f := range []string{"config/webhook/deployment.yaml", "config/webhook/kustomization.yaml"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err == nil {
			t.Errorf("%s written beside the project's own deployment", f)
		}
	}
	for _, f := range []string{"api/v1/zz_generated.deepcopy.go", widgetsCRD, "cmd/webhook/main.go"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("%s not generated: %v", f, err)
		}
	}
}

// TestOwnServiceLeavesNamespaceAndPortOpen: a project's own service.yaml
// that names no namespace, and has several ports and none 443, gives the
// CRDs its name and crdforge's default namespace and port; the warning says
// which +crdforge:webhook arguments are left to set.
func TestOwnServiceLeavesNamespaceAndPortOpen(t *testing.T) {
	dir := scratchCase(t, "ownservice")
	writeFile(t, filepath.Join(dir, "config", "webhook", "service.yaml"),
		[]byte("apiVersion: v1\nkind: Service\nmetadata:\n  name: hooks\nspec:\n  ports:\n  - name: metrics\n    port: 8080\n  - name: webhook\n    port: 9443\n"))
	code, _, stderr := run(t, dir, "generate", "--only", "crd,deploy", "./...")
	if code != ExitOK {
		t.Fatalf("exit %d, want %d\n%s", code, ExitOK, stderr)
	}
	project := dnsLabelForTest(filepath.Base(dir))
	crd, _ := os.ReadFile(filepath.Join(dir, "config", "crd", "bases", "infra.example.com_machines.yaml"))
	if want := "          name: hooks\n          namespace: " + project + "-system\n          path: /convert\n          port: 443\n"; !strings.Contains(string(crd), want) {
		t.Errorf("the CRD does not name\n%s\n%s", want, crd)
	}
	for _, want := range []string{
		"config/webhook/service.yaml:1:1: warning: this file is yours",
		"the CRDs convert through your Service " + project + "-system/hooks (port 443, path /convert), from config/webhook/service.yaml, with crdforge's default namespace and port, which nothing deploys now",
		"add `+crdforge:webhook:namespace=<namespace>,port=<port>` and `+crdforge:certmanager:injectCA=true,certificate=<namespace>/<name>`",
		"to the package comment of api/v1\n",
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("the warning lacks %q:\n%s", want, stderr)
		}
	}
}

func TestOnlyAndCRDDir(t *testing.T) {
	dir := scratchCase(t, "webhook")
	code, _, stderr := run(t, dir, "generate", "--only", "crd", "--crd-dir", "deploy/crds", "./...")
	if code != ExitOK {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "deploy/crds/example.com_widgets.yaml")); err != nil {
		t.Errorf("CRD not in --crd-dir: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "api/v1/zz_generated.deepcopy.go")); err == nil {
		t.Errorf("--only crd also ran deepcopy")
	}

	code, _, stderr = run(t, dir, "generate", "--only", "crd,nope", "./...")
	if code != ExitErrors || !strings.Contains(stderr, `unknown generator "nope"`) {
		t.Errorf("unknown generator: exit %d, stderr %q", code, stderr)
	}
}

func TestGenerateWithPackagePatterns(t *testing.T) {
	dir := scratchCase(t, "webhook")
	// Only v1: the CRD then has one version, so no conversion is needed.
	code, _, stderr := run(t, dir, "generate", "./api/v1")
	if code != ExitOK {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	crd, _ := os.ReadFile(filepath.Join(dir, widgetsCRD))
	if !bytes.Contains(crd, []byte("strategy: None")) || bytes.Contains(crd, []byte("name: v1beta1")) {
		t.Errorf("CRD from ./api/v1 alone should have only v1 and strategy None:\n%s", crd)
	}

	// Every pattern that names nothing is a line of its own, and nothing is
	// written, although ./api/... names packages.
	if err := os.MkdirAll(filepath.Join(dir, "docs"), 0o755); err != nil {
		t.Fatal(err)
	}
	before := snapshot(t, dir)
	code, _, stderr = run(t, dir, "generate", "./api/...", "./nothing/...", "./docs/...", "./docs")
	want := "crdforge: pattern ./nothing/...\n  = note: no directory " + filepath.Join(dir, "nothing") + "\n" +
		"crdforge: pattern ./docs/...\n  = note: matches no Go package\n" +
		"crdforge: pattern ./docs\n  = note: no Go files in " + filepath.Join(dir, "docs") + "\n"
	if code != ExitErrors || stderr != want {
		t.Errorf("patterns naming nothing: exit %d, stderr\n%s\nwant\n%s", code, stderr, want)
	}
	if !sameFiles(before, snapshot(t, dir)) {
		t.Errorf("the tree changed although the patterns named nothing")
	}
}

func TestMarkersCommand(t *testing.T) {
	code, stdout, _ := run(t, ".", "markers")
	if code != ExitOK {
		t.Fatalf("exit %d", code)
	}
	for _, want := range []string{
		"+crdforge:hub", "+crdforge:conversion", "strategy=<string>", "+crdforge:webhook", "[:serviceName=<string>]",
		"+crdforge:certmanager", "injectCA=<bool>",
		"+kubebuilder:storageversion", "+kubebuilder:deprecatedversion", "+kubebuilder:validation:XValidation",
		"+kubebuilder:object:root", "+groupName",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("crdforge markers does not list %q", want)
		}
	}
	_, brief, _ := run(t, ".", "markers", "--brief")
	if !regexp.MustCompile(`(?m)^\+crdforge:hub\s+package, type\s+makes this version the hub`).MatchString(brief) {
		t.Errorf("--brief lacks a one-line entry for +crdforge:hub:\n%s", brief)
	}
}

func TestVersionAndHelp(t *testing.T) {
	code, stdout, _ := run(t, ".", "version")
	if code != ExitOK || !strings.HasPrefix(stdout, "crdforge ") {
		t.Errorf("version: exit %d, %q", code, stdout)
	}
	code, stdout, _ = run(t, ".", "--help")
	if code != ExitOK {
		t.Fatalf("--help: exit %d", code)
	}
	for _, want := range []string{"generate", "markers", "version", "crdforge generate ./..."} {
		if !strings.Contains(stdout, want) {
			t.Errorf("--help lacks %q", want)
		}
	}
	_, stdout, _ = run(t, ".", "generate", "--help")
	for _, want := range []string{"--crd-dir", "--only", "--verify", "Exit codes: 0 ok, 1 stale (with --verify), 2 errors."} {
		if !strings.Contains(stdout, want) {
			t.Errorf("generate --help lacks %q", want)
		}
	}
}

// TestMissingHandWrittenConversion deletes the hand-written conversions of
// a case: generate still succeeds and says which field needs which function
// and why, and go build fails naming the missing function.
func TestMissingHandWrittenConversion(t *testing.T) {
	dir := scratchCase(t, "webhook")
	if err := os.Remove(filepath.Join(dir, "api/v1beta1/conversion.go")); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := run(t, dir, "generate", "./...")
	if code != ExitOK {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	for _, want := range []string{
		"api/v1beta1/types.go:11:2: warning: in.Size requires manual conversion (v1beta1 to v1)\n  = note: string and int32 have no mechanical conversion\n  = help: write func Convert_v1beta1_WidgetSpec_To_v1_WidgetSpec(in *WidgetSpec, out *v1.WidgetSpec, s conversion.Scope) error in package v1beta1",
		"api/v1beta1/types.go:11:2: warning: in.Size requires manual conversion (v1 to v1beta1)\n  = note: int32 and string have no mechanical conversion\n  = help: write func Convert_v1_WidgetSpec_To_v1beta1_WidgetSpec(in *v1.WidgetSpec, out *WidgetSpec, s conversion.Scope) error in package v1beta1",
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("generate does not say\n%s\nit said:\n%s", want, stderr)
		}
	}
	generated, _ := os.ReadFile(filepath.Join(dir, "api/v1beta1/zz_generated.conversion.go"))
	if !strings.Contains(string(generated), "// WARNING: in.Size requires manual conversion: string and int32 have no mechanical conversion") {
		t.Errorf("the generated file lacks the WARNING comment")
	}
	cmd := exec.Command("go", "build", "./...")
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err == nil {
		t.Fatal("go build succeeded without the hand-written conversions")
	}
	for _, name := range []string{"undefined: Convert_v1beta1_WidgetSpec_To_v1_WidgetSpec", "undefined: Convert_v1_WidgetSpec_To_v1beta1_WidgetSpec"} {
		if !strings.Contains(string(out), name) {
			t.Errorf("go build output lacks %q:\n%s", name, out)
		}
	}
}

// TestStaleGeneratedFilesAreRemoved drops a kind's only spoke: the hub's
// conversion file, the webhook main and its deployment are no longer
// produced, --verify reports them, and generate deletes them, leaving files
// crdforge did not write alone.
func TestStaleGeneratedFilesAreRemoved(t *testing.T) {
	dir := scratchCase(t, "hubmarker")
	if code, _, stderr := run(t, dir, "generate", "./..."); code != ExitOK {
		t.Fatalf("generate: %d\n%s", code, stderr)
	}
	gone := []string{"api/v1/zz_generated.conversion.go", "api/v1/zz_generated.conversion_test.go", "cmd/webhook/main.go", "config/webhook/deployment.yaml"}
	for _, f := range gone {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Fatalf("%s was not generated: %v", f, err)
		}
	}
	mine := filepath.Join(dir, "config/webhook/notes.yaml")
	writeFile(t, mine, []byte("# mine\n"))
	if err := os.RemoveAll(filepath.Join(dir, "api/v1beta1")); err != nil {
		t.Fatal(err)
	}

	code, stdout, _ := run(t, dir, "generate", "--verify", "./...")
	if code != ExitStale || !strings.Contains(stdout, "--- a/api/v1/zz_generated.conversion.go\n+++ /dev/null") {
		t.Errorf("--verify: exit %d, want %d and the deletion in the diff:\n%.2000s", code, ExitStale, stdout)
	}
	if code, _, stderr := run(t, dir, "generate", "./..."); code != ExitOK {
		t.Fatalf("generate: %d\n%s", code, stderr)
	}
	for _, f := range gone {
		if _, err := os.Stat(filepath.Join(dir, f)); err == nil {
			t.Errorf("stale %s was not removed", f)
		}
	}
	if _, err := os.Stat(mine); err != nil {
		t.Errorf("a file crdforge did not write was removed: %v", err)
	}
	for _, f := range []string{"api/v1/zz_generated.deepcopy.go", "config/crd/bases/example.com_cogs.yaml"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("%s should still be there: %v", f, err)
		}
	}
	if code, stdout, _ := run(t, dir, "generate", "--verify", "./..."); code != ExitOK {
		t.Errorf("--verify after the clean-up: exit %d\n%s", code, stdout)
	}
}

// TestStaleCodecFileIsRemoved drops one of a kind's three versions: the
// kind still converts through the webhook, so the codec package stays, but
// the file of the dropped version's package (the codec is split per Go
// package) is no longer produced; --verify reports it and generate deletes
// it, the other codec files staying.
func TestStaleCodecFileIsRemoved(t *testing.T) {
	dir := scratchCase(t, "peers")
	if code, _, stderr := run(t, dir, "generate", "./..."); code != ExitOK {
		t.Fatalf("generate: %d\n%s", code, stderr)
	}
	codecDir := filepath.Join(dir, "cmd/webhook/jsoncodec")
	gone := filepath.Join(codecDir, "zz_generated.jsoncodec.poolsexamplecomv1alpha1.go")
	kept := []string{"zz_generated.jsoncodec.go", "zz_generated.jsoncodec.poolsexamplecomv1.go", "zz_generated.jsoncodec.poolsexamplecomv1beta1.go", "zz_generated.jsoncodec.metav1.go"}
	for _, f := range append([]string{gone}, kept...) {
		if _, err := os.Stat(filepath.Join(codecDir, filepath.Base(f))); err != nil {
			t.Fatalf("%s was not generated: %v", f, err)
		}
	}
	if err := os.RemoveAll(filepath.Join(dir, "api/v1alpha1")); err != nil {
		t.Fatal(err)
	}

	code, stdout, _ := run(t, dir, "generate", "--verify", "./...")
	if code != ExitStale || !strings.Contains(stdout, "--- a/cmd/webhook/jsoncodec/zz_generated.jsoncodec.poolsexamplecomv1alpha1.go\n+++ /dev/null") {
		t.Errorf("--verify: exit %d, want %d and the codec file's deletion in the diff:\n%.2000s", code, ExitStale, stdout)
	}
	if code, _, stderr := run(t, dir, "generate", "./..."); code != ExitOK {
		t.Fatalf("generate: %d\n%s", code, stderr)
	}
	if _, err := os.Stat(gone); err == nil {
		t.Errorf("stale %s was not removed", gone)
	}
	for _, f := range kept {
		if _, err := os.Stat(filepath.Join(codecDir, f)); err != nil {
			t.Errorf("%s should still be there: %v", f, err)
		}
	}
	cmd := exec.Command("go", "build", "./cmd/webhook/...")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("the webhook does not build after the clean-up: %v\n%s", err, out)
	}
	if code, stdout, _ := run(t, dir, "generate", "--verify", "./..."); code != ExitOK {
		t.Errorf("--verify after the clean-up: exit %d\n%s", code, stdout)
	}
}

// The webhook's codec is the user's choice, by flag or project file: with
// the reflection codec the main passes its kinds to webhook.Run as they are
// and the generated codec package goes; choosing the generated codec again
// brings it back. The webhook builds either way.
func TestSwitchingTheWebhookCodec(t *testing.T) {
	dir := scratchCase(t, "webhook")
	codec := filepath.Join(dir, "cmd/webhook/jsoncodec/zz_generated.jsoncodec.go")
	main := filepath.Join(dir, "cmd/webhook/main.go")
	build := func(when string) {
		t.Helper()
		cmd := exec.Command("go", "build", "./cmd/webhook/...")
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("%s: the webhook does not build: %v\n%s", when, err, out)
		}
	}
	for _, step := range []struct {
		name      string
		args      []string
		project   string
		generated bool
	}{
		{name: "default", generated: true},
		{name: "--webhook-codec=reflect", args: []string{"--webhook-codec=reflect"}},
		{name: "--webhook-codec=generated", args: []string{"--webhook-codec=generated"}, generated: true},
		{name: "webhook-codec: reflect in the project file", project: "webhook-codec: reflect\n"},
	} {
		if step.project != "" {
			if err := os.WriteFile(filepath.Join(dir, ProjectFile), []byte(step.project), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		if code, _, stderr := run(t, dir, append(append([]string{"generate"}, step.args...), "./...")...); code != ExitOK {
			t.Fatalf("%s: generate: %d\n%s", step.name, code, stderr)
		}
		_, err := os.Stat(codec)
		src, rerr := os.ReadFile(main)
		if rerr != nil {
			t.Fatal(rerr)
		}
		if got := err == nil; got != step.generated {
			t.Errorf("%s: the generated codec is there: %v, want %v", step.name, got, step.generated)
		}
		if got := bytes.Contains(src, []byte("jsoncodec.With(kinds())")); got != step.generated {
			t.Errorf("%s: the main serves the generated codec: %v, want %v", step.name, got, step.generated)
		}
		build(step.name)
	}
	if code, _, stderr := run(t, dir, "generate", "--webhook-codec=fast", "./..."); code != ExitErrors || !strings.Contains(stderr, `unknown --webhook-codec "fast"`) {
		t.Errorf("--webhook-codec=fast: exit %d, want %d and the error\n%s", code, ExitErrors, stderr)
	}
}

// TestWritesConversionsBesideAnotherGeneratorsFile: a package whose
// zz_generated.conversion.go is another generator's (stagemap, standing for
// Crossplane's goverter) gets crdforge's conversions under crdforge's own
// names, its file untouched, run after run; once that file is gone, the
// usual names come back and crdforge's others go.
func TestWritesConversionsBesideAnotherGeneratorsFile(t *testing.T) {
	dir := scratchCase(t, "foreigngenerated")
	theirs := filepath.Join(dir, "api/v1beta1/zz_generated.conversion.go")
	before, err := os.ReadFile(theirs)
	if err != nil {
		t.Fatal(err)
	}
	code, _, stderr := run(t, dir, "generate", "./...")
	if code != ExitOK {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	if !strings.Contains(stderr, "api/v1beta1/zz_generated.conversion.go:3:1: warning: zz_generated.conversion.go is not crdforge's: conversions go to") {
		t.Errorf("no warning at the other generator's file:\n%s", stderr)
	}
	if now, _ := os.ReadFile(theirs); !bytes.Equal(now, before) {
		t.Errorf("the other generator's file was changed")
	}
	own := []string{"api/v1beta1/zz_generated.crdforge.conversion.go", "api/v1beta1/zz_generated.crdforge.conversion_test.go"}
	for _, f := range append(own, "api/v1/zz_generated.conversion.go") {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("%s not written: %v", f, err)
		}
	}
	if code, _, stderr := run(t, dir, "generate", "--verify", "./..."); code != ExitOK {
		t.Errorf("a second run would change files: exit %d\n%s", code, stderr)
	}

	// The other generator's output, and the code that calls it, go.
	for _, f := range []string{theirs, filepath.Join(dir, "api/v1beta1/stages.go")} {
		if err := os.Remove(f); err != nil {
			t.Fatal(err)
		}
	}
	if code, _, stderr := run(t, dir, "generate", "./..."); code != ExitOK {
		t.Fatalf("after removing it: exit %d\n%s", code, stderr)
	}
	if b, err := os.ReadFile(theirs); err != nil || !output.IsOurs(b) {
		t.Errorf("zz_generated.conversion.go is not crdforge's once the other is gone (err %v)", err)
	}
	for _, f := range own {
		if _, err := os.Stat(filepath.Join(dir, f)); err == nil {
			t.Errorf("%s left behind once the usual name is free", f)
		}
	}
}

// TestOutputJSON: with --output json, stdout is one JSON array of every
// diagnostic, positions in fields, and nothing else, --verify's diff
// included; stderr keeps the rest.
func TestOutputJSON(t *testing.T) {
	t.Run("errors", testOutputJSONErrors)
	t.Run("verify", testOutputJSONVerify)
}

func testOutputJSONErrors(t *testing.T) {
	dir := scratchCase(t, "err_unknown_marker")
	code, stdout, stderr := run(t, dir, "generate", "--output", "json", "./...")
	if code != ExitErrors {
		t.Fatalf("exit %d, want %d\n%s", code, ExitErrors, stderr)
	}
	var got []struct {
		File     string
		Line     int
		Column   int
		Severity string
		Message  string
	}
	if err := json.Unmarshal([]byte(stdout), &got); err != nil {
		t.Fatalf("stdout is no JSON array: %v\n%s", err, stdout)
	}
	if len(got) != 1 || got[0].File != "api/v1/types.go" || got[0].Line != 9 || got[0].Column != 4 ||
		got[0].Severity != "error" || !strings.HasPrefix(got[0].Message, "unknown marker +crdforge:hubb") {
		t.Errorf("diagnostics = %+v, want one error at api/v1/types.go:9:4 about +crdforge:hubb", got)
	}
	if strings.Contains(stderr, "hubb") {
		t.Errorf("with --output json, stderr repeats the diagnostic:\n%s", stderr)
	}
}

func testOutputJSONVerify(t *testing.T) {
	dir := scratchCase(t, "webhook")
	if code, _, stderr := run(t, dir, "generate", "./..."); code != ExitOK {
		t.Fatalf("generate: exit %d\n%s", code, stderr)
	}
	crd := filepath.Join(dir, widgetsCRD)
	good, _ := os.ReadFile(crd)
	writeFile(t, crd, bytes.Replace(good, []byte("port: 8443"), []byte("port: 9443"), 1))
	code, stdout, stderr := run(t, dir, "generate", "-o", "json", "--verify", "./...")
	if code != ExitStale || strings.TrimSpace(stdout) != "[]" || !strings.Contains(stderr, "+++ b/"+widgetsCRD) {
		t.Errorf("--verify -o json: exit %d (want %d), stdout %q (want []), the diff on stderr:\n%s", code, ExitStale, stdout, stderr)
	}
	if code, _, stderr := run(t, dir, "generate", "-o", "yaml", "./..."); code == ExitOK || !strings.Contains(stderr, `--output "yaml"`) {
		t.Errorf("-o yaml: exit %d, stderr %q; want a refusal", code, stderr)
	}
}
