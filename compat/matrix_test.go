// Package compat proves the README's claims about versions: a project on
// any Kubernetes minor from the runtime's documented minimum to the newest,
// built with either supported Go release, adopts crdforge's generated code,
// the webhook main included, without any of its versions moving.
package compat

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/crdforge/crdforge/e2e"
)

// row is a project's versions: its go directive and what it requires.
type row struct {
	goVersion, kubernetes, controllerRuntime string
	// jsonExperiment, when set, is a go-json-experiment/json version the
	// project's own code uses: v1.27.x is the standard library's
	// encoding/json/v2 on Go 1.27, whose API the webhook's JSON once
	// depended on in an older form.
	jsonExperiment string
}

// matrix has a row for every Kubernetes minor from the lean modules'
// minimums (runtime/go.mod and webhook/go.mod require exactly the first
// row's versions) to the newest, each with the controller-runtime of its
// minor and the go directive those require. TestMatrixHasEveryMinor keeps
// it so.
var matrix = []row{
	{"1.21.0", "v0.29.0", "v0.16.0", ""},
	{"1.22.0", "v0.30.0", "v0.18.0", ""},
	{"1.22.0", "v0.31.0", "v0.19.0", ""},
	{"1.23.0", "v0.32.0", "v0.20.0", ""},
	{"1.24.0", "v0.33.0", "v0.21.0", ""},
	{"1.24.0", "v0.34.0", "v0.22.0", ""},
	{"1.25.0", "v0.35.0", "v0.23.0", ""},
	{"1.26.0", "v0.36.0", "v0.24.0", ""},
	{"1.26.0", "v0.37.2", "v0.25.2", "v1.27.2"},
}

// toolchains are the Go releases a project builds with: the local one and,
// from the Makefile's GO_NEXT, the next (CRDFORGE_GO_NEXT, a toolchain name
// such as go1.27.4), which the project asks for with its go.mod's toolchain
// line.
func toolchains(t *testing.T) []string {
	next := os.Getenv("CRDFORGE_GO_NEXT")
	if next == "" {
		if os.Getenv("CRDFORGE_E2E_REQUIRED") != "" {
			t.Fatal("CRDFORGE_GO_NEXT is not set: make test sets it to the Makefile's GO_NEXT")
		}
		t.Log("CRDFORGE_GO_NEXT is not set: the matrix runs on the local Go only")
		return []string{"local"}
	}
	return []string{"local", next}
}

// TestAdoptionMatrix writes, for each row with the local Go (and the oldest
// and newest rows with the next Go release), a project on
// the row's versions whose API (testdata/database's, two versions) crdforge
// generates code for, the conversion webhook's main included, beside a
// package of the project's own that uses client-go's apply configurations
// (which stop compiling when k8s.io/apimachinery and client-go drift apart).
// The project then takes the README's steps: tidy, build, vet, run the
// generated round-trip tests and a conversion through the generated
// webhook's kinds, and find generate --verify up to date. Its go directive,
// Kubernetes and controller-runtime requirements must not have moved.
func TestAdoptionMatrix(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: tidies and builds a project per row and Go release")
	}
	root, err := e2e.RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	ctx := e2e.UntilDeadline(t) // after the parallel subtests, not when this function returns
	for _, tc := range toolchains(t) {
		for i, r := range matrix {
			// The next Go release builds the oldest and the newest row:
			// what it changes is the Go toolchain, and every Kubernetes
			// minor between them already builds with the local one.
			if tc != "local" && i != 0 && i != len(matrix)-1 {
				continue
			}
			t.Run(tc+"/k8s-"+r.kubernetes, func(t *testing.T) {
				// Rows run two at a time (go test's -parallel is
				// GOMAXPROCS): one project's downloads, links and tests
				// overlap another's compiles. crdforge is built once
				// (crdforgeBin), whichever row comes first.
				t.Parallel()
				p := newProject(ctx, t, root, r, tc)
				p.adopt(ctx)
				p.assertNothingMoved(ctx)
			})
		}
	}
}

// project is a throwaway module on one row's versions.
type project struct {
	t *testing.T
	// dir is the project's; root crdforge's checkout.
	dir, root string
	// crdforge is the binary the README's install step puts on PATH.
	crdforge string
	// toolchain is the Go release the project builds with, "local" or a
	// toolchain name.
	toolchain string
	row       row
	env       []string
}

// newProject writes a project on r's versions that builds with toolchain
// (a GOTOOLCHAIN value), with crdforge's checkout at root.
func newProject(ctx context.Context, t *testing.T, root string, r row, toolchain string) *project {
	p := emptyProject(ctx, t, root, toolchain)
	p.row = r
	requires := "\tk8s.io/api " + r.kubernetes + "\n\tk8s.io/apimachinery " + r.kubernetes + "\n\tk8s.io/client-go " + r.kubernetes +
		"\n\tsigs.k8s.io/controller-runtime " + r.controllerRuntime + "\n"
	if r.jsonExperiment != "" {
		requires += "\tgithub.com/go-json-experiment/json " + r.jsonExperiment + "\n"
		p.write("internal/settings/settings.go", `// Package settings is the project's own code on go-json-experiment/json.
package settings

import "github.com/go-json-experiment/json"

// Encode encodes settings.
func Encode(v map[string]string) ([]byte, error) { return json.Marshal(v, json.Deterministic(true)) }
`)
	}
	gomod := "module example.com/dbop\n\ngo " + r.goVersion + "\n"
	if tc := p.pinnedToolchain(); tc != "" {
		gomod += "\ntoolchain " + tc + "\n"
	}
	p.write("go.mod", gomod+"\nrequire (\n"+requires+")\n")
	p.assertToolchain(ctx)
	p.writeDatabaseAPI()
	p.write("internal/apply/apply.go", `// Package apply is the project's own code: a scheme for its controllers
// and server-side apply through client-go's typed apply configurations.
package apply

import (
	"k8s.io/apimachinery/pkg/runtime/schema"
	corev1 "k8s.io/client-go/applyconfigurations/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/scheme"
)

// SchemeBuilder registers the project's types.
var SchemeBuilder = &scheme.Builder{GroupVersion: schema.GroupVersion{Group: "databases.example.com", Version: "v1"}}

// Settings is the ConfigMap a controller of the project applies.
func Settings(namespace string) *corev1.ConfigMapApplyConfiguration {
	return corev1.ConfigMap("dbop-settings", namespace).WithData(map[string]string{"retention": "7d"})
}
`)
	return p
}

// emptyProject is a project directory with nothing in it yet, whose
// commands build with toolchain and find crdforge, installed with the local
// Go, first on PATH (crdforgeBin).
//
// A project on the next Go release names it in its go.mod's toolchain line
// (newProject), as a project that moves to a new Go before its
// contributors' machines do: GOTOOLCHAIN=auto then switches to it in the
// project, while the README's install step, in crdforge's checkout, builds
// the generator (a tool, README) with the local Go as everywhere else.
// GOTOOLCHAIN set to the next release instead would compile the generator
// and its whole dependency tree again with it, which no claim needs.
func emptyProject(ctx context.Context, t *testing.T, root, toolchain string) *project {
	p := &project{t: t, dir: t.TempDir(), root: root, toolchain: toolchain}
	gotoolchain := "local"
	if p.pinnedToolchain() != "" {
		gotoolchain = "auto"
	}
	p.env = append(os.Environ(), e2e.GoFlags("-mod=mod"), "GOWORK=off", "GOTOOLCHAIN="+gotoolchain, "CRDFORGE="+root)
	bin := crdforgeBin(ctx, t, root, p.env)
	p.crdforge = filepath.Join(bin, "crdforge")
	p.env = append(p.env, "GOBIN="+bin, "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	return p
}

// pinnedToolchain is what the project's go.mod's toolchain line names:
// nothing for the local Go.
func (p *project) pinnedToolchain() string {
	if p.toolchain == "local" {
		return ""
	}
	return p.toolchain
}

// assertToolchain stops the test unless the go command in the project is
// the project's toolchain: a row meant for the next Go release that built
// with the local one would prove nothing.
func (p *project) assertToolchain(ctx context.Context) {
	p.t.Helper()
	want := p.pinnedToolchain()
	if want == "" {
		want = runtime.Version()
	}
	if got := strings.TrimSpace(p.output(ctx, "go", "env", "GOVERSION")); got != want {
		p.t.Fatalf("the project's go command is %s, want %s", got, want)
	}
}

// writeDatabaseAPI writes testdata/database's API, two versions, into the
// project's api/.
func (p *project) writeDatabaseAPI() {
	p.t.Helper()
	src := filepath.Join(p.root, "testdata", "database", "api")
	for _, f := range []string{"v1/groupversion_info.go", "v1/database_types.go", "v1alpha1/groupversion_info.go", "v1alpha1/database_types.go", "v1alpha1/conversion_test.go"} {
		b, err := os.ReadFile(filepath.Join(src, f))
		if err != nil {
			p.t.Fatal(err)
		}
		p.write(filepath.Join("api", f), strings.ReplaceAll(string(b), "github.com/crdforge/crdforge/testdata/database", "example.com/dbop"))
	}
}

func (p *project) write(name, text string) {
	p.t.Helper()
	path := filepath.Join(p.dir, name)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		p.t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		p.t.Fatal(err)
	}
}

// run runs a command in the project and fails the test on an error; it
// returns what the command printed, on stdout and stderr.
func (p *project) run(ctx context.Context, name string, args ...string) string {
	p.t.Helper()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir, cmd.Env = p.dir, p.env
	out, err := cmd.CombinedOutput()
	if err != nil {
		p.t.Fatalf("%s %s: %v\n%s", filepath.Base(name), strings.Join(args, " "), err, tail(string(out), 4000))
	}
	return string(out)
}

// output is run for a command whose stdout the test reads: the go command
// says on stderr what it does on the way (go: downloading go1.27.4, the
// first time a project asks for that toolchain).
func (p *project) output(ctx context.Context, name string, args ...string) string {
	p.t.Helper()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir, cmd.Env = p.dir, p.env
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		p.t.Fatalf("%s %s: %v\n%s", filepath.Base(name), strings.Join(args, " "), err, tail(stderr.String(), 4000))
	}
	return string(out)
}

// adopt takes the README's adoption steps word for word, crdforge and its
// lean modules from this checkout ($CRDFORGE), then builds, vets, tests and
// verifies the project.
func (p *project) adopt(ctx context.Context) {
	steps, err := e2e.READMESteps(filepath.Join(p.root, "README.md"))
	if err != nil {
		p.t.Fatal(err)
	}
	for _, step := range steps {
		p.run(ctx, "sh", "-c", step)
	}
	e2e.StopIfFetching(p.t)
	if _, err := os.Stat(filepath.Join(p.dir, "cmd", "webhook", "main.go")); err != nil {
		p.t.Fatalf("generate wrote no webhook main: %v", err)
	}
	p.write("cmd/webhook/convert_test.go", convertTest)
	// -vet=off: the README's go vet step has vetted the project, and go
	// test's vet would type-check every dependency again, for the facts of
	// a subset of the same analyzers.
	p.run(ctx, "go", "test", "-count=1", "-vet=off", "./...")
	p.run(ctx, "sh", "-c", "crdforge generate --verify ./...")
}

// convertTest is a test the project adds beside its generated webhook main:
// the main's own kinds and generated codecs answer a ConversionReview that
// asks for a v1alpha1 Database as v1.
const convertTest = `package main

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/crdforge/crdforge/webhook"

	"example.com/dbop/cmd/webhook/jsoncodec"
)

func TestTheWebhookConverts(t *testing.T) {
	h, err := webhook.NewHandler(webhook.HandlerOptions{}, jsoncodec.With(kinds())...)
	if err != nil {
		t.Fatal(err)
	}
	review := ` + "`" + `{"apiVersion":"apiextensions.k8s.io/v1","kind":"ConversionReview","request":{"uid":"u1",` + "`" + ` +
		` + "`" + `"desiredAPIVersion":"databases.example.com/v1","objects":[{"apiVersion":"databases.example.com/v1alpha1",` + "`" + ` +
		` + "`" + `"kind":"Database","metadata":{"name":"db","namespace":"ns","uid":"x"},"spec":{"sizeGB":10,"engine":"MySQL"}}]}}` + "`" + `
	r := httptest.NewRequest(http.MethodPost, "/convert", strings.NewReader(review))
	r.Header.Set("Content-Type", "application/json")
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	got := w.Body.String()
	for _, want := range []string{` + "`" + `"status":"Success"` + "`" + `, ` + "`" + `"apiVersion":"databases.example.com/v1"` + "`" + `, ` + "`" + `"size":10` + "`" + `} {
		if w.Code != http.StatusOK || !strings.Contains(got, want) {
			t.Fatalf("%d %s: want %s", w.Code, got, want)
		}
	}
}
`

// assertNothingMoved fails the test if tidying moved the project's go
// directive or any of its Kubernetes or controller-runtime requirements.
func (p *project) assertNothingMoved(ctx context.Context) {
	var mod struct {
		Go, Toolchain string
		Require       []struct{ Path, Version string }
	}
	if err := json.Unmarshal([]byte(p.output(ctx, "go", "mod", "edit", "-json")), &mod); err != nil {
		p.t.Fatal(err)
	}
	if mod.Go != p.row.goVersion {
		p.t.Errorf("go directive moved from %s to %s", p.row.goVersion, mod.Go)
	}
	if want := p.pinnedToolchain(); mod.Toolchain != want {
		p.t.Errorf("the toolchain line moved from %q to %q", want, mod.Toolchain)
	}
	for _, r := range mod.Require {
		switch r.Path {
		case "sigs.k8s.io/controller-runtime":
			if r.Version != p.row.controllerRuntime {
				p.t.Errorf("%s moved from %s to %s", r.Path, p.row.controllerRuntime, r.Version)
			}
		case "k8s.io/api", "k8s.io/apimachinery", "k8s.io/client-go":
			if r.Version != p.row.kubernetes {
				p.t.Errorf("%s moved from %s to %s", r.Path, p.row.kubernetes, r.Version)
			}
		default:
			// The other modules released with Kubernetes
			// (apiextensions-apiserver, component-base, ...) may not pass
			// the project's minor either.
			if strings.HasPrefix(r.Path, "k8s.io/") && strings.HasPrefix(r.Version, "v0.") && minor(r.Version) > minor(p.row.kubernetes) {
				p.t.Errorf("%s %s is of a later minor than the project's Kubernetes %s", r.Path, r.Version, p.row.kubernetes)
			}
		}
		if r.Path == "github.com/crdforge/crdforge" {
			p.t.Errorf("the project requires crdforge's generator module")
		}
	}
	if p.t.Failed() {
		p.t.Logf("go.mod after the README's steps:\n%s", p.output(ctx, "go", "mod", "edit", "-print"))
	}
}

// minor returns the minor of a v0.<minor>.<patch> version, -1 for another
// form.
func minor(v string) int {
	parts := strings.Split(v, ".")
	if len(parts) < 2 {
		return -1
	}
	n, err := strconv.Atoi(parts[1])
	if err != nil {
		return -1
	}
	return n
}

func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return "..." + s[len(s)-n:]
}
