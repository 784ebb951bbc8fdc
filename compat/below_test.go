package compat

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/crdforge/crdforge/e2e"
)

// TestBelowTheMinimumsWarns runs crdforge generate in a project on go 1.20,
// Kubernetes v0.27 and controller-runtime v0.15, below what the generated
// conversions and webhook main need: the run goes on (exit 0), and one
// warning, at go.mod's go directive, names each version found, the one
// needed and the go get that raises them.
func TestBelowTheMinimumsWarns(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: tidies a project on old Kubernetes versions")
	}
	root, err := e2e.RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	p := emptyProject(ctx, t, root, "local")
	p.writeDatabaseAPI()
	p.write("go.mod", "module example.com/dbop\n\ngo 1.20\n\nrequire (\n\tk8s.io/apimachinery v0.27.2\n\tsigs.k8s.io/controller-runtime v0.15.0\n)\n")
	// The project's own test needs crdforge's runtime module, which it
	// does not require yet.
	if err := os.Remove(filepath.Join(p.dir, "api", "v1alpha1", "conversion_test.go")); err != nil {
		t.Fatal(err)
	}
	// As kubebuilder scaffolds it, so that the project requires
	// controller-runtime itself.
	p.write("api/v1/scheme.go", "package v1\n\nimport (\n\t\"k8s.io/apimachinery/pkg/runtime/schema\"\n\t\"sigs.k8s.io/controller-runtime/pkg/scheme\"\n)\n\n"+
		"// SchemeBuilder registers the version's types.\nvar SchemeBuilder = &scheme.Builder{GroupVersion: schema.GroupVersion{Group: \"databases.example.com\", Version: \"v1\"}}\n")
	p.run(ctx, "go", "mod", "tidy")
	e2e.StopIfFetching(t)

	cmd := exec.CommandContext(ctx, p.crdforge, "generate", "./...")
	var stderr bytes.Buffer
	cmd.Dir, cmd.Env, cmd.Stderr = p.dir, p.env, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("crdforge generate: %v, want exit 0 (a warning)\n%s", err, stderr.String())
	}
	var atGoMod []string // each diagnostic at go.mod, with its notes
	for _, line := range strings.Split(stderr.String(), "\n") {
		switch {
		case strings.HasPrefix(line, "go.mod:"):
			atGoMod = append(atGoMod, line)
		case strings.HasPrefix(line, "  = ") && len(atGoMod) > 0:
			atGoMod[len(atGoMod)-1] += "\n" + line
		}
	}
	want := "go.mod:3:1: warning: go.mod is below the versions crdforge's generated code needs\n" +
		"  = note: go 1.20 (needs 1.21), k8s.io/apimachinery v0.27.2 (needs v0.29.0), sigs.k8s.io/controller-runtime v0.15.0 (needs v0.16.0)\n" +
		"  = note: generated code imports github.com/crdforge/crdforge/runtime and github.com/crdforge/crdforge/webhook; go mod tidy would raise them alone\n" +
		"  = help: run `go get go@1.21.0 k8s.io/apimachinery@v0.29.0 sigs.k8s.io/controller-runtime@v0.16.0` before building"
	if len(atGoMod) != 1 || atGoMod[0] != want {
		t.Errorf("want one warning at go.mod:\n%s\ngot\n%s", want, stderr.String())
	}
}
