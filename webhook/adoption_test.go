package webhook_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// The oldest Go, Kubernetes and controller-runtime a project adopting
// crdforge's webhook may be on: what this module's go.mod requires, and what
// the README promises; the same as the runtime module's but for Go, where
// the webhook needs 1.22 (range over integers). Raising any of them in
// go.mod fails the test below; compat/ proves the same on every Kubernetes
// minor since, with both Go releases.
const (
	oldestGo                = "1.22"
	oldestAPIMachinery      = "v0.29.0"
	oldestControllerRuntime = "v0.16.0"
)

// adopterFiles is a throwaway project on the oldest versions: an API
// package with a hub and a spoke, and the main crdforge generates for it
// (cmd/webhook/main.go, as generators/webhook prints it).
var adopterFiles = map[string]string{
	"go.mod": `module example.com/adopter

go ` + oldestGo + `

require (
	github.com/crdforge/crdforge/webhook v0.0.0-00010101000000-000000000000
	k8s.io/apimachinery ` + oldestAPIMachinery + `
	sigs.k8s.io/controller-runtime ` + oldestControllerRuntime + `
)

replace github.com/crdforge/crdforge/webhook => WEBHOOK
`,
	"api/v1/types.go": `package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

type Widget struct {
	metav1.TypeMeta   ` + "`json:\",inline\"`" + `
	metav1.ObjectMeta ` + "`json:\"metadata,omitempty\"`" + `
	Size              string ` + "`json:\"size,omitempty\"`" + `
}

func (*Widget) Hub() {}

func (in *Widget) DeepCopyObject() runtime.Object {
	out := *in
	in.ObjectMeta.DeepCopyInto(&out.ObjectMeta)
	return &out
}
`,
	"api/v2/types.go": `package v2

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/conversion"

	v1 "example.com/adopter/api/v1"
)

type Widget struct {
	metav1.TypeMeta   ` + "`json:\",inline\"`" + `
	metav1.ObjectMeta ` + "`json:\"metadata,omitempty\"`" + `
	Dimension         string ` + "`json:\"dimension,omitempty\"`" + `
}

func (in *Widget) DeepCopyObject() runtime.Object {
	out := *in
	in.ObjectMeta.DeepCopyInto(&out.ObjectMeta)
	return &out
}

func (in *Widget) ConvertTo(hub conversion.Hub) error {
	h := hub.(*v1.Widget)
	h.ObjectMeta, h.Size = in.ObjectMeta, in.Dimension
	return nil
}

func (out *Widget) ConvertFrom(hub conversion.Hub) error {
	h := hub.(*v1.Widget)
	out.ObjectMeta, out.Dimension = h.ObjectMeta, h.Size
	return nil
}
`,
	"cmd/webhook/main.go": `package main

import (
	"flag"
	"os"

	"github.com/crdforge/crdforge/webhook"
	kruntime "k8s.io/apimachinery/pkg/runtime"

	examplecomv1 "example.com/adopter/api/v1"
	examplecomv2 "example.com/adopter/api/v2"
)

func main() {
	opts := webhook.BindFlags(flag.CommandLine)
	flag.Parse()
	os.Exit(webhook.Run(opts, kinds()...))
}

func kinds() []webhook.Kind {
	return []webhook.Kind{{
		Group: "example.com", Kind: "Widget", Hub: "v1",
		Versions: map[string]func() kruntime.Object{
			"v1": func() kruntime.Object { return new(examplecomv1.Widget) },
			"v2": func() kruntime.Object { return new(examplecomv2.Widget) },
		},
	}}
}
`,
}

// generatorModules are crdforge's generator and what only it requires: an
// adopter's go.mod lists none of them.
var generatorModules = []string{
	"github.com/crdforge/crdforge",
	"golang.org/x/tools",
	"github.com/dave/jennifer",
	"sigs.k8s.io/controller-tools",
	"k8s.io/gengo/v2",
}

// generatorModule reports whether path is one of generatorModules or below
// one; crdforge's lean modules, this one and its runtime, are not.
func generatorModule(path string) bool {
	if path == webhookPath || path == "github.com/crdforge/crdforge/runtime" {
		return false
	}
	for _, g := range generatorModules {
		if path == g || strings.HasPrefix(path, g+"/") {
			return true
		}
	}
	return false
}

// modFile is what go mod edit -json prints of a go.mod.
type modFile struct {
	Go        string
	Toolchain string
	Require   []struct {
		Path     string
		Version  string
		Indirect bool
	}
}

// TestAdoptionRaisesNoVersion writes a project on the oldest versions above
// whose webhook main is the one crdforge generates, tidies and builds it, and
// fails if its go directive, or its Kubernetes or controller-runtime
// requirements, moved, or if it now requires anything of the generator's:
// adopting crdforge's webhook must not upgrade anything of the user's. It
// needs the module proxy, or a module cache that holds these versions.
func TestAdoptionRaisesNoVersion(t *testing.T) {
	if testing.Short() {
		t.Skip("tidies a throwaway module against the module proxy; skipped with -short")
	}
	webhookDir, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for name, text := range adopterFiles {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(strings.ReplaceAll(text, "WEBHOOK", webhookDir)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	run := func(args ...string) string {
		t.Helper()
		cmd := exec.Command("go", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), goflags("-mod=mod"), "GOWORK=off", "GOTOOLCHAIN=local")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	run("mod", "tidy")
	stopIfFetching(t)
	run("vet", "./...") // builds the main and the API packages

	var got modFile
	if err := json.Unmarshal([]byte(run("mod", "edit", "-json")), &got); err != nil {
		t.Fatal(err)
	}
	if got.Go != oldestGo {
		t.Errorf("go directive moved from %s to %s", oldestGo, got.Go)
	}
	if got.Toolchain != "" {
		t.Errorf("tidy added toolchain %s", got.Toolchain)
	}
	for _, r := range got.Require {
		switch {
		case r.Path == "k8s.io/apimachinery" && r.Version != oldestAPIMachinery,
			r.Path == "sigs.k8s.io/controller-runtime" && r.Version != oldestControllerRuntime:
			t.Errorf("%s moved to %s", r.Path, r.Version)
		case stagingRepo(r.Path) && laterMinor(r.Version, oldestAPIMachinery):
			// k8s.io/api, client-go and the rest are released with
			// apimachinery and must not pass it.
			t.Errorf("%s %s is later than k8s.io/apimachinery %s", r.Path, r.Version, oldestAPIMachinery)
		}
		if generatorModule(r.Path) {
			t.Errorf("the adopter requires %s %s, a module of crdforge's generator", r.Path, r.Version)
		}
	}
	if t.Failed() {
		t.Logf("go.mod after tidy:\n%s", run("mod", "edit", "-print"))
	}
}

// stagingRepo reports whether path is a Kubernetes module versioned along
// with k8s.io/apimachinery (v0.<minor>.<patch>).
func stagingRepo(path string) bool {
	switch path {
	case "k8s.io/api", "k8s.io/apimachinery", "k8s.io/apiextensions-apiserver", "k8s.io/client-go",
		"k8s.io/apiserver", "k8s.io/component-base", "k8s.io/code-generator":
		return true
	}
	return false
}

// laterMinor reports whether v0.A.x is of a later minor than v0.B.y.
func laterMinor(a, b string) bool {
	minor := func(v string) int {
		parts := strings.Split(strings.TrimPrefix(v, "v"), ".")
		if len(parts) < 2 {
			return -1
		}
		n, err := strconv.Atoi(parts[1])
		if err != nil {
			return -1
		}
		return n
	}
	return minor(a) > minor(b)
}

// stopIfFetching ends t, skipped, once its modules are downloaded, when
// CRDFORGE_FETCH is set (make fetch-compat): the test runs again later with
// the module proxy off.
func stopIfFetching(t *testing.T) {
	t.Helper()
	if os.Getenv("CRDFORGE_FETCH") != "" {
		t.Skip("CRDFORGE_FETCH: the modules this test needs are in the module cache")
	}
}

// goflags returns GOFLAGS for the go commands the test runs: flags, and
// the build configuration (-trimpath, -gcflags, -ldflags, and -toolexec:
// hack/toolexec-log.sh) this process's GOFLAGS set, as make's do, so that
// the module built in a temporary directory gets its packages from the
// build cache rather than compiling them again in every new directory.
// (The main module's e2e.GoFlags, which this lean module cannot import.)
func goflags(flags ...string) string {
	for _, f := range strings.Fields(os.Getenv("GOFLAGS")) {
		if f == "-trimpath" || strings.HasPrefix(f, "-gcflags=") || strings.HasPrefix(f, "-ldflags=") || strings.HasPrefix(f, "-toolexec=") {
			flags = append(flags, f)
		}
	}
	return "GOFLAGS=" + strings.Join(flags, " ")
}
