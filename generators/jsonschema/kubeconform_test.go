package jsonschema_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/crdforge/crdforge/generators/pipeline"
)

// schemaLocation is the -schema-location template of the package's doc, as
// kubeconform's README writes it for the CRDs-catalog, under a directory.
const schemaLocation = "{{.Group}}/{{.ResourceKind}}_{{.ResourceAPIVersion}}.json"

// kubeconform builds kubeconform from tools/kubeconform's go.mod into the
// test's directory: a few seconds from the build cache, half a minute of
// CPU cold, with modules make fetch-modules downloads.
func kubeconform(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "kubeconform")
	cmd := exec.Command("go", "build", "-o", bin, "github.com/yannh/kubeconform/cmd/kubeconform")
	cmd.Dir = filepath.Join("..", "..", "tools", "kubeconform")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("building kubeconform: %v\n%s", err, out)
	}
	return bin
}

// schemas writes the JSON Schemas crdforge generates for an example into a
// temporary directory, and returns it.
func schemas(t *testing.T, example string) string {
	t.Helper()
	dir := t.TempDir()
	res, err := pipeline.Generate(pipeline.Config{Dir: filepath.Join("..", "..", "examples", example), Only: []string{"jsonschema"}, JSONSchemaDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if res.Diags.HasErrors() || len(res.Files) == 0 {
		t.Fatalf("%s: no schemas: %v", example, res.Diags.Items())
	}
	for _, f := range res.Files {
		if err := os.MkdirAll(filepath.Dir(f.Path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(f.Path, f.Content, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// result is one resource of kubeconform's -output json -verbose.
type result struct {
	Name   string `json:"name"`
	Kind   string `json:"kind"`
	Status string `json:"status"`
	Msg    string `json:"msg"`
}

// validate runs kubeconform on file against the schemas in dir alone
// (no default location: nothing is downloaded), and returns each resource's
// result.
func validate(t *testing.T, bin, dir, file string) []result {
	t.Helper()
	out, err := exec.Command(bin, "-schema-location", filepath.Join(dir, schemaLocation), "-output", "json", "-verbose", file).Output()
	if _, exit := err.(*exec.ExitError); err != nil && !exit {
		t.Fatal(err)
	}
	var report struct{ Resources []result }
	if err := json.Unmarshal(out, &report); err != nil {
		t.Fatalf("kubeconform's report of %s: %v\n%s", file, err, out)
	}
	return report.Resources
}

// kubeconform, built from its Go module, finds every example's schemas
// where the README's template says, passes the objects the API server
// accepts (testdata/<example>/valid.yaml, one per served version), and
// refuses each it refuses or would prune (invalid.yaml): a field of
// another version, a value out of its bounds, enum or pattern, a missing
// required field, an int-or-string of another type.
func TestKubeconformValidatesEveryExample(t *testing.T) {
	bin := kubeconform(t)
	for _, example := range []string{"crontab", "cronjob", "widgets"} {
		t.Run(example, func(t *testing.T) {
			dir := schemas(t, example)
			for file, want := range map[string]string{"valid.yaml": "statusValid", "invalid.yaml": "statusInvalid"} {
				results := validate(t, bin, dir, filepath.Join("testdata", example, file))
				if want, got := documents(t, filepath.Join("testdata", example, file)), len(results); got != want {
					t.Errorf("%s: kubeconform checked %d objects, want %d", file, got, want)
				}
				for _, r := range results {
					if r.Status != want {
						t.Errorf("%s: %s %s: %s %s, want %s", file, r.Kind, r.Name, r.Status, r.Msg, want)
					}
				}
			}
		})
	}
}

// documents counts the YAML documents of file.
func documents(t *testing.T, file string) int {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Count(string(b), "\n---\n") + 1
}
