package runtime_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// The oldest Go, Kubernetes and controller-runtime an API module adopting
// crdforge may be on: what this module's go.mod requires, and what the
// README promises. Raising any of them in go.mod fails the test below.
const (
	oldestGo                = "1.24.0"
	oldestAPIMachinery      = "v0.34.0"
	oldestControllerRuntime = "v0.18.0"
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
	runtimeDir, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for name, text := range adopterFiles {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(strings.ReplaceAll(text, "RUNTIME", runtimeDir)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	run := func(args ...string) string {
		t.Helper()
		cmd := exec.Command("go", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off", "GOTOOLCHAIN=local")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	run("mod", "tidy")
	run("vet", "./...") // builds the API package and its test

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
			// k8s.io/api, client-go, apiextensions-apiserver and the rest
			// are released with apimachinery and must not pass it.
			t.Errorf("%s %s is later than k8s.io/apimachinery %s", r.Path, r.Version, oldestAPIMachinery)
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
