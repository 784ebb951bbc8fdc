package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/yaml"

	"github.com/crdforge/crdforge/cmd/crdforge/cli"
)

// gizmoCRD is the testdata CRD crdforge validate's table is checked
// against: bounds, an enum, defaults, CEL rules, a transition rule.
var gizmoCRD = filepath.Join("testdata", "validate", "config", "crd", "bases", "validate.crdforge.test_gizmos.yaml")

var gizmos = schema.GroupVersionResource{Group: "validate.crdforge.test", Version: "v1", Resource: "gizmos"}

// validateCase is an object's spec, and, for an update, the spec of the
// object it replaces.
type validateCase struct {
	name, spec, old string
	valid           bool
	pruned          string // a field validate warns the server drops
}

var validateCases = []validateCase{
	{name: "valid, defaults applied", spec: `{"name":"g-a","size":"small"}`, valid: true},
	{name: "above the maximum", spec: `{"replicas":11}`},
	{name: "not in the enum", spec: `{"mode":"Slow"}`},
	{name: "a field's CEL rule", spec: `{"name":"x"}`},
	{name: "an object's CEL rule", spec: `{"replicas":2,"maxSurge":3}`},
	{name: "a CEL rule not run on an invalid object", spec: `{"replicas":0,"name":"x"}`},
	{name: "a pruned field", spec: `{"name":"g-b","extra":1}`, valid: true, pruned: "spec.extra"},
	{name: "a transition rule on update", old: `{"size":"small"}`, spec: `{"size":"large"}`},
	{name: "an update the transition rule allows", old: `{"size":"small"}`, spec: `{"size":"small","replicas":3}`, valid: true},
}

// TestValidateAgreesWithTheAPIServer applies each object of a table to the
// real API server (a create, or for an update a create of the old object
// then the update) and runs crdforge validate on the same files: the
// verdicts agree, every error validate reports is in the server's refusal,
// the defaulted object is the one the server stores, and a field validate
// says the server drops is not stored.
func TestValidateAgreesWithTheAPIServer(t *testing.T) {
	t.Parallel()
	needCluster(t)
	ctx := context.Background()
	crd := installGizmos(ctx, t)
	for i, tt := range validateCases {
		t.Run(tt.name, func(t *testing.T) {
			name := "case-" + string(rune('a'+i))
			dir := t.TempDir()
			obj := gizmo(name, tt.spec)
			args := []string{"validate", "--crd", crd, "--output", "json"}
			var current *unstructured.Unstructured
			if tt.old != "" {
				current = createGizmo(ctx, t, gizmo(name, tt.old))
				args = append(args, "--old", writeObject(t, dir, "old.yaml", gizmo(name, tt.old)))
			}
			diags, code := runValidate(t, append(args, writeObject(t, dir, "new.yaml", obj)))
			stored, serverErr := applyGizmo(ctx, obj, current)
			t.Cleanup(func() {
				// A refused create stored nothing to delete.
				err := cluster.Dynamic.Resource(gizmos).Namespace("default").Delete(ctx, name, metav1.DeleteOptions{})
				if err != nil && !apierrors.IsNotFound(err) {
					t.Errorf("deleting %s: %v", name, err)
				}
			})
			if (serverErr == nil) != tt.valid || (code == cli.ExitOK) != tt.valid {
				t.Fatalf("server: %v; crdforge validate: exit %d %v; want valid %v", serverErr, code, diags, tt.valid)
			}
			for _, d := range diags {
				if d.Severity == "error" && !saysTheSame(serverErr.Error(), d.Message) {
					t.Errorf("validate says %q, the server does not:\n%v", d.Message, serverErr)
				}
			}
			if tt.valid {
				checkStored(t, stored, showDefaults(t, crd, dir, current != nil), tt.pruned, diags)
			}
		})
	}
}

// saysTheSame reports whether the server's refusal names the field and
// says the reason of msg, a refusal crdforge validate printed: its text
// before the first ": " and after the last. How the value in between is
// shown differs by release (1.31 prints a CEL rule's value as its type,
// "string"; 1.37 as the value), and crdforge validate runs the newest
// release's code.
func saysTheSame(server, msg string) bool {
	first, _, _ := strings.Cut(msg, ": ")
	last := msg[strings.LastIndex(msg, ": ")+len(": "):]
	return strings.Contains(server, first) && strings.Contains(server, last)
}

// installGizmos installs the testdata CRD, deleted when the test ends, and
// returns its absolute path.
func installGizmos(ctx context.Context, t *testing.T) string {
	t.Helper()
	path, err := filepath.Abs(gizmoCRD)
	if err != nil {
		t.Fatal(err)
	}
	crd, err := LoadCRD(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := cluster.ApplyCRD(ctx, crd); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := cluster.Dynamic.Resource(CRDResource).Delete(ctx, crd.GetName(), metav1.DeleteOptions{}); err != nil {
			t.Errorf("deleting %s: %v", crd.GetName(), err)
		}
	})
	if err := cluster.WaitEstablished(ctx, crd.GetName()); err != nil {
		t.Fatal(err)
	}
	// Established is not yet served: wait for the resource to list.
	if err := PollFor(ctx, time1m, func() error {
		_, err := cluster.Dynamic.Resource(gizmos).Namespace("default").List(ctx, metav1.ListOptions{})
		return err
	}); err != nil {
		t.Fatal(err)
	}
	return path
}

func gizmo(name, spec string) *unstructured.Unstructured {
	var s map[string]any
	if err := json.Unmarshal([]byte(spec), &s); err != nil {
		panic(err)
	}
	return &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "validate.crdforge.test/v1", "kind": "Gizmo",
		"metadata": map[string]any{"name": name, "namespace": "default"},
		"spec":     s,
	}}
}

func writeObject(t *testing.T, dir, file string, obj *unstructured.Unstructured) string {
	t.Helper()
	b, err := yaml.Marshal(obj.Object)
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, file)
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func createGizmo(ctx context.Context, t *testing.T, obj *unstructured.Unstructured) *unstructured.Unstructured {
	t.Helper()
	got, err := cluster.Dynamic.Resource(gizmos).Namespace("default").Create(ctx, obj, metav1.CreateOptions{})
	if err != nil {
		t.Fatalf("creating the old object: %v", err)
	}
	return got
}

// applyGizmo creates obj, or updates current to it.
func applyGizmo(ctx context.Context, obj, current *unstructured.Unstructured) (*unstructured.Unstructured, error) {
	client := cluster.Dynamic.Resource(gizmos).Namespace("default")
	if current == nil {
		return client.Create(ctx, obj, metav1.CreateOptions{})
	}
	obj = obj.DeepCopy()
	obj.SetResourceVersion(current.GetResourceVersion())
	return client.Update(ctx, obj, metav1.UpdateOptions{})
}

// validateDiag is a diagnostic of crdforge validate --output json.
type validateDiag struct {
	File, Severity, Field, Message string
	Line, Column                   int
}

func runValidate(t *testing.T, args []string) ([]validateDiag, int) {
	t.Helper()
	var out, errb bytes.Buffer
	code := cli.Main(args, &out, &errb)
	if code == cli.ExitErrors {
		t.Fatalf("crdforge %s: exit 2\n%s%s", strings.Join(args, " "), out.String(), errb.String())
	}
	var diags []validateDiag
	if err := json.Unmarshal(out.Bytes(), &diags); err != nil {
		t.Fatalf("crdforge validate --output json: %v\n%s", err, out.String())
	}
	return diags, code
}

// showDefaults is the new object of dir as crdforge validate
// --show-defaults prints it.
func showDefaults(t *testing.T, crd, dir string, update bool) map[string]any {
	t.Helper()
	args := []string{"validate", "--crd", crd, "--show-defaults"}
	if update {
		args = append(args, "--old", filepath.Join(dir, "old.yaml"))
	}
	var out, errb bytes.Buffer
	if code := cli.Main(append(args, filepath.Join(dir, "new.yaml")), &out, &errb); code != cli.ExitOK {
		t.Fatalf("--show-defaults: exit %d\n%s", code, errb.String())
	}
	var obj map[string]any
	if err := yaml.Unmarshal(out.Bytes(), &obj); err != nil {
		t.Fatal(err)
	}
	return obj
}

// checkStored holds the server's stored spec to validate's defaulted one,
// and a field validate warned of to being dropped.
func checkStored(t *testing.T, stored *unstructured.Unstructured, shown map[string]any, pruned string, diags []validateDiag) {
	t.Helper()
	var want map[string]any // through JSON, as shown's numbers are
	b, _ := json.Marshal(stored.Object["spec"])
	if err := json.Unmarshal(b, &want); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(shown["spec"], want) {
		t.Errorf("--show-defaults spec %v, the server stored %v", shown["spec"], want)
	}
	warned := ""
	for _, d := range diags {
		if d.Severity == "warning" {
			warned = d.Field
		}
	}
	if warned != pruned {
		t.Errorf("validate warns of %q dropped, want %q", warned, pruned)
	}
}
