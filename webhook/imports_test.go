package webhook_test

import (
	"io/fs"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// generatorOnly lists module path prefixes that only the generator may use:
// a webhook binary, generated or hand-written, carries none of them.
var generatorOnly = []string{
	"golang.org/x/tools",
	"github.com/dave/jennifer",
	"sigs.k8s.io/controller-tools",
	"k8s.io/gengo",
	"github.com/crdforge/crdforge/generators/pipeline",
	"github.com/crdforge/crdforge/markers",
	"github.com/crdforge/crdforge/cmd",
}

const webhookPath = "github.com/crdforge/crdforge/webhook"

// guarded is what a webhook binary links of this module: every webhook
// package. The lean runtime module that generated API packages import
// (../runtime) is guarded by its own imports_test.go.
var guarded = []string{webhookPath + "/..."}

// deps lists every package that the packages of patterns link, themselves
// included and tests excluded, as the module in dir resolves them.
func deps(t *testing.T, dir string, patterns ...string) []string {
	t.Helper()
	cmd := exec.Command("go", append([]string{"list", "-deps", "-f", "{{.ImportPath}}"}, patterns...)...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	deps := strings.Fields(string(out))
	if len(deps) == 0 {
		t.Fatal("go list returned no packages")
	}
	return deps
}

// forbidden returns the generator dependencies among deps.
func forbidden(deps []string) []string {
	var bad []string
	for _, dep := range deps {
		for _, g := range generatorOnly {
			if dep == g || strings.HasPrefix(dep, g+"/") {
				bad = append(bad, dep)
				break
			}
		}
	}
	return bad
}

// TestWebhookImportsNoGeneratorDependency fails on any generator dependency
// of the webhook packages, internal/ included.
func TestWebhookImportsNoGeneratorDependency(t *testing.T) {
	for _, dep := range forbidden(deps(t, ".", guarded...)) {
		t.Errorf("the webhook depends on %s, a generator dependency", dep)
	}
}

// TestGuardCoversEveryWebhookPackage makes sure the pattern above reaches
// every directory of Go code under webhook/, so that a new package cannot
// slip past the guard (a build constraint excluding it, say).
func TestGuardCoversEveryWebhookPackage(t *testing.T) {
	linked := deps(t, ".", guarded...)
	var found []string
	err := filepath.WalkDir(".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if p != "." && (name == "testdata" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(name, ".go") && !strings.HasSuffix(name, "_test.go") {
			pkg := path.Join(webhookPath, filepath.ToSlash(filepath.Dir(p)))
			if !slices.Contains(found, pkg) {
				found = append(found, pkg)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{webhookPath, webhookPath + "/internal/server"} {
		if !slices.Contains(found, want) {
			t.Errorf("found no Go files of %s; the walk is wrong", want)
		}
	}
	for _, pkg := range found {
		if !slices.Contains(linked, pkg) {
			t.Errorf("%s holds Go code but the guard does not list it", pkg)
		}
	}
}

// TestGuardCatchesAGeneratorImport makes sure the guard above can fail: the
// generators package of crdforge's main module (the directory above this
// module's), which does import controller-tools, must be flagged.
func TestGuardCatchesAGeneratorImport(t *testing.T) {
	bad := forbidden(deps(t, "..", "github.com/crdforge/crdforge/generators/pipeline"))
	if !slices.ContainsFunc(bad, func(dep string) bool { return strings.HasPrefix(dep, "sigs.k8s.io/controller-tools/") }) {
		t.Fatalf("the guard should flag the generators package's controller-tools dependency; it flags %v", bad)
	}
}

// TestDefaultMainLinksNoClientGo holds a generated main that does not
// register certificate management (the crontab example's) to what a webhook
// linked before --manage-certs: no client-go at all. client-go's typed
// clientset registers every group of k8s.io/api and more than doubled the
// binary; only a main generated with webhook-manage-certs links
// webhook/certmanage, and with it client-go's rest and dynamic clients.
func TestDefaultMainLinksNoClientGo(t *testing.T) {
	for _, dep := range deps(t, "..", "github.com/crdforge/crdforge/examples/crontab/cmd/webhook") {
		if strings.HasPrefix(dep, "k8s.io/client-go/") || strings.HasPrefix(dep, webhookPath+"/internal/certmanage") ||
			strings.HasPrefix(dep, webhookPath+"/automigrate") || strings.HasPrefix(dep, webhookPath+"/storagemigrate") ||
			strings.HasPrefix(dep, webhookPath+"/internal/lease") {
			t.Errorf("the crontab example's webhook, generated without webhook-manage-certs, links %s", dep)
		}
	}
}

// TestManagedCertsMainLinksNoTypedClients holds a main generated with
// webhook-manage-certs and webhook-migrate-storage (the cronjob example's)
// to client-go's REST and dynamic clients: no typed clientset, no
// tools/leaderelection (which takes typed clients), no Lease or
// EndpointSlice type, and none of apiextensions-apiserver (the migration
// reads CRDs through the dynamic client). (The example's API itself imports
// k8s.io/api's batch and core groups.)
func TestManagedCertsMainLinksNoTypedClients(t *testing.T) {
	linked := deps(t, "..", "github.com/crdforge/crdforge/examples/cronjob/cmd/webhook")
	for _, want := range []string{webhookPath + "/certmanage", webhookPath + "/automigrate", webhookPath + "/storagemigrate"} {
		if !slices.Contains(linked, want) {
			t.Fatalf("the cronjob example's webhook does not link %s; is it still generated with webhook-manage-certs and webhook-migrate-storage?", want)
		}
	}
	for _, dep := range linked {
		for _, bad := range []string{"k8s.io/client-go/kubernetes", "k8s.io/client-go/tools/leaderelection", "k8s.io/api/coordination",
			"k8s.io/apiextensions-apiserver", "k8s.io/api/discovery"} {
			if dep == bad || strings.HasPrefix(dep, bad+"/") {
				t.Errorf("the cronjob example's webhook links %s", dep)
			}
		}
	}
}
