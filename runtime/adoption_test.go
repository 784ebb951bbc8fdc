package runtime_test

import (
	"encoding/json"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/crdforge/crdforge/runtime/conversiontest"
)

// The oldest Go, Kubernetes and controller-runtime an API module adopting
// crdforge may be on: what this module's go.mod requires, and what the
// README promises. Raising any of them in go.mod fails the tests below.
//
// Why these: real API modules still run Kubernetes v0.29
// (cluster-api-provider-openstack v0.10 is on v0.29.3 with controller-runtime
// v0.16.3, which v0.30 breaks), and requiring v0.30 made their go mod tidy
// raise them. apimachinery v0.29.0 states go 1.21, so this module's go
// directive needs be no newer than that. controller-runtime
// v0.16.0 is the oldest release users of these Kubernetes versions run (it
// requires apimachinery v0.28). So this module's code avoids what came
// later: Go 1.22's range over integers, per-iteration loop variables,
// reflect.TypeFor and slices.Concat, and testing.B.Loop (1.24);
// apimachinery's util/diff.Diff (v0.31), IntOrString filling itself for
// randfill (v0.33) and ObjectMeta's omitzero creationTimestamp (v0.33).
const (
	oldestGo                = "1.21"
	oldestAPIMachinery      = "v0.29.0"
	oldestControllerRuntime = "v0.16.0"
)

// adopterFiles is a throwaway API module on the oldest versions, whose API
// package imports what generated code imports: lossless and controller-
// runtime's conversion in zz_generated.conversion.go, conversiontest in
// zz_generated.conversion_test.go.
var adopterFiles = map[string]string{
	"go.mod": `module example.com/adopter

go ` + oldestGo + `

require (
	github.com/crdforge/crdforge/runtime v0.0.0-00010101000000-000000000000
	k8s.io/apimachinery ` + oldestAPIMachinery + `
	sigs.k8s.io/controller-runtime ` + oldestControllerRuntime + `
)

replace github.com/crdforge/crdforge/runtime => RUNTIME
`,
	"api/v1/types.go": `package v1

import (
	"github.com/crdforge/crdforge/runtime/lossless"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/conversion"
)

type Widget struct {
	metav1.TypeMeta   ` + "`json:\",inline\"`" + `
	metav1.ObjectMeta ` + "`json:\"metadata,omitempty\"`" + `
}

var (
	_ = lossless.Annotation
	_ conversion.Hub
)
`,
	"api/v1/types_test.go": `package v1

import (
	"testing"

	"github.com/crdforge/crdforge/runtime/conversiontest"
)

func TestFillFuncs(t *testing.T) {
	if len(conversiontest.DefaultFillFuncs()) == 0 {
		t.Fatal("no fill functions")
	}
}
`,
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

// TestAdoptionRaisesNoVersion writes an API module on the oldest versions
// above that imports this module as generated code does, tidies it, and
// fails if its go directive, or its Kubernetes or controller-runtime
// requirements, moved: adopting crdforge must not upgrade anything of the
// user's. It needs the module proxy, or a module cache that holds these
// versions.
func TestAdoptionRaisesNoVersion(t *testing.T) {
	if testing.Short() {
		t.Skip("tidies a throwaway module against the module proxy; skipped with -short")
	}
	m := newAdopter(t, adopterFiles)
	m.run("mod", "tidy")
	stopIfFetching(t)
	m.run("vet", "./...") // builds the API package and its test
	m.checkNothingMoved()
	// What generated code imports needs no Kubernetes module but
	// apimachinery: apiextensions' JSON is filled by reflection.
	if mod := m.run("mod", "edit", "-print"); strings.Contains(mod, "k8s.io/apiextensions-apiserver") {
		t.Errorf("adopting crdforge added k8s.io/apiextensions-apiserver:\n%s", mod)
	}
}

// TestExamplesRoundTripOnTheOldestVersions copies the API packages of every
// example (types, hand-written conversions and tests, and crdforge's
// generated deepcopy, conversions and round-trip tests) into a module on the
// oldest versions above, and requires that tidying moves none of them, and
// that the packages vet and their round-trip tests pass there: the
// generated code works with the oldest Kubernetes this module promises, not
// only with the generator's.
func TestExamplesRoundTripOnTheOldestVersions(t *testing.T) {
	if testing.Short() {
		t.Skip("tidies, builds and tests a throwaway module against the module proxy; skipped with -short")
	}
	examples, err := filepath.Abs(filepath.Join("..", "examples"))
	if err != nil {
		t.Fatal(err)
	}
	apis, _ := filepath.Glob(filepath.Join(examples, "*", "api"))
	if len(apis) == 0 {
		t.Skip("no examples beside this module (not a crdforge checkout)")
	}
	files := map[string]string{
		// The examples' import paths are github.com/crdforge/crdforge/
		// examples/...: the throwaway module takes that path.
		"go.mod": `module github.com/crdforge/crdforge/examples

go ` + oldestGo + `

require (
	github.com/crdforge/crdforge/runtime v0.0.0-00010101000000-000000000000
	k8s.io/api ` + oldestAPIMachinery + `
	k8s.io/apimachinery ` + oldestAPIMachinery + `
	sigs.k8s.io/controller-runtime ` + oldestControllerRuntime + `
)

replace github.com/crdforge/crdforge/runtime => RUNTIME
`,
	}
	for _, api := range apis {
		err := filepath.WalkDir(api, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") {
				return err
			}
			b, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			rel, err := filepath.Rel(examples, path)
			files[rel] = string(b)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	m := newAdopter(t, files)
	m.run("mod", "tidy")
	stopIfFetching(t)
	m.checkNothingMoved()
	m.run("vet", "./...")
	// A few hundred objects per direction: the generator's own tests run the
	// full count against its versions; here the question is only whether
	// the code works at all with the oldest ones.
	out := m.run("test", "-count=1", "./...")
	if !strings.Contains(out, "ok ") {
		t.Errorf("no package tested:\n%s", out)
	}
	t.Logf("%s", out)
}

// adopter is a throwaway module in a temporary directory that requires this
// module through a replace, as a user's module does before crdforge is
// published.
type adopter struct {
	t   *testing.T
	dir string
}

// newAdopter writes files (paths relative to the module's root; RUNTIME in
// them stands for this module's directory).
func newAdopter(t *testing.T, files map[string]string) *adopter {
	t.Helper()
	runtimeDir, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for name, text := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(strings.ReplaceAll(text, "RUNTIME", runtimeDir)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return &adopter{t: t, dir: dir}
}

// run runs the go command in the module with the local toolchain (a go
// directive the toolchain does not know would fetch another), and fails
// the test if it fails.
func (m *adopter) run(args ...string) string {
	m.t.Helper()
	cmd := exec.Command("go", args...)
	cmd.Dir = m.dir
	cmd.Env = append(os.Environ(), goflags("-mod=mod"), "GOWORK=off", "GOTOOLCHAIN=local",
		conversiontest.IterationsEnv+"=200")
	out, err := cmd.CombinedOutput()
	if err != nil {
		m.t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// checkNothingMoved fails the test if the module's go directive, or its
// Kubernetes or controller-runtime requirements, are no longer the oldest
// ones: adopting crdforge must not upgrade anything of the user's.
func (m *adopter) checkNothingMoved() {
	t := m.t
	t.Helper()
	var got modFile
	if err := json.Unmarshal([]byte(m.run("mod", "edit", "-json")), &got); err != nil {
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
			// k8s.io/api, client-go, apiextensions-apiserver and the rest
			// are released with apimachinery and must not pass it.
			t.Errorf("%s %s is later than k8s.io/apimachinery %s", r.Path, r.Version, oldestAPIMachinery)
		}
	}
	if t.Failed() {
		t.Logf("go.mod after tidy:\n%s", m.run("mod", "edit", "-print"))
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
