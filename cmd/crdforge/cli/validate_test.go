package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// validateCRD is a CRD whose v1 bounds and defaults replicas.
const validateCRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: things.g.example.com}
spec:
  group: g.example.com
  scope: Namespaced
  names: {kind: Thing, plural: things}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              replicas: {type: integer, minimum: 1, maximum: 10, default: 1}
`

// validateIn runs crdforge validate in a directory holding the CRD where
// crdforge generate writes it, and the files given.
func validateIn(t *testing.T, files map[string]string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	dir := t.TempDir()
	files["config/crd/bases/g.example.com_things.yaml"] = validateCRD
	for name, content := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(dir)
	var out, errb bytes.Buffer
	code = Main(append([]string{"validate"}, args...), &out, &errb)
	return code, out.String(), errb.String()
}

const thing = "apiVersion: g.example.com/v1\nkind: Thing\nmetadata: {name: t, namespace: default}\nspec:\n  replicas: %s\n"

func thingWith(replicas string) string { return strings.Replace(thing, "%s", replicas, 1) }

// crdforge validate exits 0 on valid objects, 1 on a refused one, 2 when
// it cannot read what it is given; the CRD is found in config/crd/bases.
func TestValidateExitCodes(t *testing.T) {
	for _, tt := range []struct {
		name     string
		replicas string
		args     []string
		want     int
		stderr   string
	}{
		{"valid", "3", []string{"t.yaml"}, ExitOK, ""},
		{"refused", "11", []string{"t.yaml"}, ExitInvalid, "t.yaml:5:3: spec.replicas: Invalid value: 11"},
		{"a file that is not there", "3", []string{"none.yaml"}, ExitErrors, "none.yaml"},
		{"an unknown --output", "3", []string{"-o", "xml", "t.yaml"}, ExitErrors, "--output must be text or json"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			code, _, stderr := validateIn(t, map[string]string{"t.yaml": thingWith(tt.replicas)}, tt.args...)
			if code != tt.want || !strings.Contains(stderr, tt.stderr) {
				t.Errorf("exit %d, stderr\n%s\nwant exit %d and %q", code, stderr, tt.want, tt.stderr)
			}
		})
	}
}

// --output json is one array on stdout, each diagnostic with the file,
// line, column, severity, field and message CI annotates with.
func TestValidateOutputJSON(t *testing.T) {
	code, stdout, _ := validateIn(t, map[string]string{"t.yaml": thingWith("0")}, "--output", "json", "t.yaml")
	var got []map[string]any
	if err := json.Unmarshal([]byte(stdout), &got); err != nil {
		t.Fatalf("%v: %s", err, stdout)
	}
	if code != ExitInvalid || len(got) != 1 {
		t.Fatalf("exit %d, %s", code, stdout)
	}
	want := map[string]any{"file": "t.yaml", "line": 5.0, "column": 3.0, "severity": "error", "field": "spec.replicas"}
	for k, v := range want {
		if got[0][k] != v {
			t.Errorf("%s = %v, want %v", k, got[0][k], v)
		}
	}
	if !strings.Contains(got[0]["message"].(string), "greater than or equal to 1") {
		t.Errorf("message %q", got[0]["message"])
	}
}

// --show-defaults prints the object as the server would store it.
func TestValidateShowDefaults(t *testing.T) {
	obj := "apiVersion: g.example.com/v1\nkind: Thing\nmetadata: {name: t}\nspec: {}\n"
	code, stdout, stderr := validateIn(t, map[string]string{"t.yaml": obj}, "--show-defaults", "t.yaml")
	if code != ExitOK || !strings.Contains(stdout, "spec:\n  replicas: 1\n") {
		t.Errorf("exit %d, stdout\n%s\nstderr\n%s", code, stdout, stderr)
	}
}
