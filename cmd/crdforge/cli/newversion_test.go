package cli

import (
	"bytes"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// scratchExample copies examples/<name> into a scratch directory inside the
// module (so that its imports resolve), with its import paths rewritten.
func scratchExample(t *testing.T, name string) string {
	t.Helper()
	base, _ := filepath.Abs(filepath.Join(testdataDir, "_scratch"))
	if err := os.MkdirAll(base, 0o755); err != nil {
		t.Fatal(err)
	}
	dst, err := os.MkdirTemp(base, "newversion-"+name+"-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := os.RemoveAll(dst); err != nil {
			t.Error(err)
		}
		if rest, err := os.ReadDir(base); err == nil && len(rest) == 0 {
			if err := os.Remove(base); err != nil {
				t.Error(err)
			}
		}
	})
	src, _ := filepath.Abs(filepath.Join("..", "..", "..", "examples", name))
	from := []byte(module + "/examples/" + name + "/")
	to := []byte(module + "/testdata/_scratch/" + filepath.Base(dst) + "/")
	err = filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		r, _ := filepath.Rel(src, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, r), 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, r), bytes.ReplaceAll(b, from, to), 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

// goIn runs the go command in dir and fails the test when it fails.
func goIn(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "CRDFORGE_ROUNDTRIP_ITERATIONS=300")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go %s in %s: %v\n%s", strings.Join(args, " "), dir, err, out)
	}
}

// TestNewVersionOnEachExample adds a version to every example: the copy
// compiles, the regenerated tree's round-trip tests pass (the new pair's
// conversions are all mechanical), generate --verify is clean afterwards,
// and the CRD has the new version served and not storage.
func TestNewVersionOnEachExample(t *testing.T) {
	for _, tc := range []struct{ example, version, from, wantFrom string }{
		{"crontab", "v2", "", "v1"},                  // from the hub
		{"widgets", "v2", "", "v1"},                  // three versions, one deprecated
		{"cronjob", "v3", "", "v2"},                  // kubebuilder's CronJob tutorial
		{"crontab", "v1beta2", "v1beta1", "v1beta1"}, // from a spoke with hand-written conversions and tests
	} {
		t.Run(tc.example+"-"+tc.version, func(t *testing.T) {
			dir := scratchExample(t, tc.example)
			args := []string{"new-version", tc.version}
			if tc.from != "" {
				args = append(args, "--from", tc.from)
			}
			code, _, stderr := run(t, dir, args...)
			if code != 0 {
				t.Fatalf("crdforge %s: exit %d\n%s", strings.Join(args, " "), code, stderr)
			}
			newDir := filepath.Join(dir, "api", tc.version)
			for _, f := range []string{"groupversion_info.go", "zz_generated.deepcopy.go", "zz_generated.conversion.go"} {
				if _, err := os.Stat(filepath.Join(newDir, f)); err != nil {
					t.Errorf("api/%s/%s: %v", tc.version, f, err)
				}
			}
			gv, _ := os.ReadFile(filepath.Join(newDir, "groupversion_info.go"))
			if !bytes.Contains(gv, []byte("package "+tc.version)) || !bytes.Contains(gv, []byte(`Version: "`+tc.version+`"`)) {
				t.Errorf("api/%s/groupversion_info.go names the wrong version:\n%s", tc.version, gv)
			}
			goIn(t, dir, "vet", "./...")
			goIn(t, dir, "test", "-count=1", "./api/...")
			if code, out, stderr := run(t, dir, "generate", "--verify", "./..."); code != 0 {
				t.Errorf("generate --verify after new-version: exit %d\n%s%s", code, out, stderr)
			}
			crds, _ := filepath.Glob(filepath.Join(dir, "config", "crd", "bases", "*_"+map[string]string{"crontab": "crontabs", "widgets": "widgets", "cronjob": "cronjobs"}[tc.example]+".yaml"))
			if len(crds) != 1 {
				t.Fatalf("CRD files %v", crds)
			}
			crd, _ := os.ReadFile(crds[0])
			if !bytes.Contains(crd, []byte("    served: true\n    storage: false\n")) || !bytes.Contains(crd, []byte("name: "+tc.version+"\n")) {
				t.Errorf("the CRD does not serve %s as a non-storage version:\n%s", tc.version, crd)
			}
		})
	}
}

// TestNewVersionMovesRoles: --storage makes the new version the storage
// version and pins the hub where it was; --warning deprecates the old one.
func TestNewVersionMovesRoles(t *testing.T) {
	dir := scratchExample(t, "crontab")
	code, _, stderr := run(t, dir, "new-version", "v2", "--storage", "--warning", `v1 goes away; use "v2"`)
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	read := func(p string) string {
		b, err := os.ReadFile(filepath.Join(dir, p))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	if s := read("api/v2/crontab_types.go"); !strings.Contains(s, "// +kubebuilder:storageversion\n") {
		t.Errorf("api/v2 is not the storage version:\n%s", s)
	}
	v1 := read("api/v1/crontab_types.go")
	if strings.Contains(v1, "+kubebuilder:storageversion") || !strings.Contains(v1, `// +kubebuilder:deprecatedversion:warning="v1 goes away; use \"v2\""`+"\ntype CronTab struct") {
		t.Errorf("api/v1 should have lost storageversion and gained the deprecation:\n%s", v1)
	}
	if s := read("api/v1/groupversion_info.go"); !strings.Contains(s, "// +crdforge:hub\npackage v1") {
		t.Errorf("the hub is not pinned to v1:\n%s", s)
	}
	crd := read("config/crd/bases/example.com_crontabs.yaml")
	for _, want := range []string{"  - name: v2\n", "    storage: true\n  - deprecated: true\n    deprecationWarning: v1 goes away; use \"v2\"\n    name: v1\n"} {
		if !strings.Contains(crd, want) {
			t.Errorf("the CRD lacks %q:\n%s", want, crd)
		}
	}
	goIn(t, dir, "vet", "./...")
	goIn(t, dir, "test", "-count=1", "./api/...")
}

// TestNewVersionKeepsAnImplicitStorageVersion: a kind's only version is its
// storage version without +kubebuilder:storageversion; new-version marks it,
// so that it stays the storage version beside the new one rather than the
// kind having none.
func TestNewVersionKeepsAnImplicitStorageVersion(t *testing.T) {
	dir := scratchExample(t, "crontab")
	for _, p := range []string{"api/v1beta1", "cmd", "config", "webhook_test.go", "api/v1/zz_generated.conversion.go"} {
		if err := os.RemoveAll(filepath.Join(dir, p)); err != nil {
			t.Fatal(err)
		}
	}
	types := filepath.Join(dir, "api/v1/crontab_types.go")
	b, err := os.ReadFile(types)
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, types, bytes.Replace(b, []byte("// +kubebuilder:storageversion\n"), nil, 1))
	if code, _, stderr := run(t, dir, "generate", "./..."); code != 0 {
		t.Fatalf("generate of the one version: exit %d\n%s", code, stderr)
	}
	if code, _, stderr := run(t, dir, "new-version", "v2"); code != 0 {
		t.Fatalf("new-version v2: exit %d\n%s", code, stderr)
	}
	if v1, _ := os.ReadFile(types); !bytes.Contains(v1, []byte("// +kubebuilder:storageversion\ntype CronTab struct")) {
		t.Errorf("api/v1 is not marked the storage version:\n%s", v1)
	}
	crd, _ := os.ReadFile(filepath.Join(dir, "config/crd/bases/example.com_crontabs.yaml"))
	if !bytes.Contains(crd, []byte("name: v1\n    schema:")) || !bytes.Contains(crd, []byte("    served: true\n    storage: true\n")) ||
		!bytes.Contains(crd, []byte("name: v2\n")) {
		t.Errorf("the CRD should serve v1 as storage beside v2:\n%s", crd)
	}
	if code, out, stderr := run(t, dir, "generate", "--verify", "./..."); code != 0 {
		t.Errorf("generate --verify after new-version: exit %d\n%s%s", code, out, stderr)
	}
}

// TestNewVersionRefuses: what new-version refuses, each with exit 2, a
// positioned error where there is a position, and the tree untouched.
func TestNewVersionRefuses(t *testing.T) {
	dir := scratchExample(t, "crontab")
	if err := os.MkdirAll(filepath.Join(dir, "api", "v3"), 0o755); err != nil {
		t.Fatal(err)
	}
	before := snapshot(t, dir)
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"existing version", []string{"v1beta1"}, "api/v1beta1/crontab_types.go:"},
		{"existing directory", []string{"v3"}, "api/v3 already exists: crdforge new-version never overwrites"},
		{"not a version", []string{"version2"}, `"version2" is not a Kubernetes API version`},
		{"unknown --from", []string{"v2", "--from", "v9"}, "has no version v9 (it has v1, v1beta1)"},
		{"--hub breaks hand-written conversions", []string{"v2", "--hub"}, "api/v1beta1/conversion.go:20:6: Convert_v1beta1_CronTab_To_v1_CronTab converts to or from the hub v1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, _, stderr := run(t, dir, append([]string{"new-version"}, tc.args...)...)
			if code != 2 || !strings.Contains(stderr, tc.want) {
				t.Errorf("exit %d, stderr:\n%s\nwant exit 2 and %q", code, stderr, tc.want)
			}
			if !sameFiles(before, snapshot(t, dir)) {
				t.Errorf("the tree changed")
			}
		})
	}
}

// kubebuilderFiles is an API as kubebuilder v4 scaffolds it (create api
// --group batch --version v1 --kind Job): a PROJECT file, controller-
// runtime's scheme.Builder registered from init, spec and status with the
// status subresource.
var kubebuilderFiles = map[string]string{
	"PROJECT": `domain: example.com
layout:
- go.kubebuilder.io/v4
projectName: kb
repo: REPO
resources:
- api:
    crdVersion: v1
    namespaced: true
  domain: example.com
  group: batch
  kind: Job
  path: REPO/api/v1
  version: v1
version: "3"
`,
	"api/v1/groupversion_info.go": `// Package v1 contains API Schema definitions for the batch v1 API group.
// +kubebuilder:object:generate=true
// +groupName=batch.example.com
package v1

import (
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/scheme"
)

var (
	// GroupVersion is group version used to register these objects.
	GroupVersion = schema.GroupVersion{Group: "batch.example.com", Version: "v1"}

	// SchemeBuilder is used to add go types to the GroupVersionKind scheme.
	SchemeBuilder = &scheme.Builder{GroupVersion: GroupVersion}

	// AddToScheme adds the types in this group-version to the given scheme.
	AddToScheme = SchemeBuilder.AddToScheme
)
`,
	"api/v1/job_types.go": `package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// JobSpec defines the desired state of Job.
type JobSpec struct {
	// +kubebuilder:validation:MinLength=1
	Image string ` + "`json:\"image\"`" + `
	// +optional
	Args []string ` + "`json:\"args,omitempty\"`" + `
}

// JobStatus defines the observed state of Job.
type JobStatus struct {
	// +optional
	Conditions []metav1.Condition ` + "`json:\"conditions,omitempty\"`" + `
}

// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:storageversion

// Job is the Schema for the jobs API.
type Job struct {
	metav1.TypeMeta   ` + "`json:\",inline\"`" + `
	metav1.ObjectMeta ` + "`json:\"metadata,omitempty\"`" + `

	Spec   JobSpec   ` + "`json:\"spec,omitempty\"`" + `
	Status JobStatus ` + "`json:\"status,omitempty\"`" + `
}

// +kubebuilder:object:root=true

// JobList contains a list of Job.
type JobList struct {
	metav1.TypeMeta ` + "`json:\",inline\"`" + `
	metav1.ListMeta ` + "`json:\"metadata,omitempty\"`" + `
	Items           []Job ` + "`json:\"items\"`" + `
}

func init() {
	SchemeBuilder.Register(&Job{}, &JobList{})
}
`,
}

// TestNewVersionInAKubebuilderLayout adds v2 to an API laid out as
// kubebuilder scaffolds it; the copy registers with controller-runtime's
// scheme builder as the original does, and the tree builds and round-trips.
func TestNewVersionInAKubebuilderLayout(t *testing.T) {
	base, _ := filepath.Abs(filepath.Join(testdataDir, "_scratch"))
	if err := os.MkdirAll(base, 0o755); err != nil {
		t.Fatal(err)
	}
	dir, err := os.MkdirTemp(base, "newversion-kb-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := os.RemoveAll(dir); err != nil {
			t.Error(err)
		}
	})
	repo := module + "/testdata/_scratch/" + filepath.Base(dir)
	for p, content := range kubebuilderFiles {
		writeFile(t, filepath.Join(dir, p), []byte(strings.ReplaceAll(content, "REPO", repo)))
	}
	if code, _, stderr := run(t, dir, "generate", "./..."); code != 0 {
		t.Fatalf("generate: exit %d\n%s", code, stderr)
	}
	if code, _, stderr := run(t, dir, "new-version", "v2"); code != 0 {
		t.Fatalf("new-version v2: exit %d\n%s", code, stderr)
	}
	gv, _ := os.ReadFile(filepath.Join(dir, "api", "v2", "groupversion_info.go"))
	if !bytes.Contains(gv, []byte(`// Package v2 contains API Schema definitions for the batch v2 API group.`)) ||
		!bytes.Contains(gv, []byte(`Version: "v2"`)) || !bytes.Contains(gv, []byte("SchemeBuilder = &scheme.Builder{GroupVersion: GroupVersion}")) {
		t.Errorf("api/v2/groupversion_info.go:\n%s", gv)
	}
	goIn(t, dir, "vet", "./...")
	goIn(t, dir, "test", "-count=1", "./api/...")
	if code, out, stderr := run(t, dir, "generate", "--verify", "./..."); code != 0 {
		t.Errorf("generate --verify after new-version: exit %d\n%s%s", code, out, stderr)
	}
}
