package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/mod/modfile"
)

// TestTiersRunOffline holds the Makefile to its promise that the unit,
// end-to-end (on the newest and the oldest release) and real-world tiers
// reach no network: every go test they run
// runs with $(OFFLINE), the module proxy off, so that a test that would
// still download a module fails in the gate (make test runs these recipes)
// rather than passing by chance. Each tier's downloads are a fetch step of
// their own (fetch-modules, $(FETCHED_E2E), $(FETCHED_REALWORLD)).
func TestTiersRunOffline(t *testing.T) {
	b, err := os.ReadFile("../../Makefile")
	if err != nil {
		t.Fatal(err)
	}
	makefile := string(b)
	if !regexp.MustCompile(`(?m)^OFFLINE\s*:=.*\bGOPROXY=off\b`).MatchString(makefile) {
		t.Fatal("the Makefile's OFFLINE does not set GOPROXY=off")
	}
	for _, tier := range []string{"test-unit", "test-e2e", "test-e2e-oldest", "test-realworld"} {
		recipe := recipeOf(makefile, tier)
		if recipe == nil {
			t.Errorf("the Makefile has no %s target", tier)
			continue
		}
		for _, line := range recipe {
			if strings.Contains(line, "$(GO) test") && !strings.Contains(line, "$(OFFLINE)") {
				t.Errorf("%s runs go test with the module proxy on:\n\t%s", tier, line)
			}
		}
	}
}

// TestTiersBuildWithTrimpath holds the Makefile to building everything
// with -trimpath: it exports GOFLAGS with it, and every go test of a tier
// passes those GOFLAGS on (with -count=1), to the go commands its tests run
// too (e2e.GoFlags). Without -trimpath the build cache keys a package on its
// directory, and a warm run compiled the projects the tests build in
// temporary directories again.
func TestTiersBuildWithTrimpath(t *testing.T) {
	b, err := os.ReadFile("../../Makefile")
	if err != nil {
		t.Fatal(err)
	}
	makefile := string(b)
	if !regexp.MustCompile(`(?m)^export GOFLAGS \+= -trimpath$`).MatchString(makefile) {
		t.Fatal("the Makefile does not export GOFLAGS with -trimpath")
	}
	for _, v := range []string{"OFFLINE", "TIER"} {
		if !regexp.MustCompile(`(?m)^` + v + `\s*:=.*\bGOFLAGS="\$\(GOFLAGS\) `).MatchString(makefile) {
			t.Errorf("the Makefile's %s sets GOFLAGS without the exported ones", v)
		}
	}
	for _, tier := range []string{"test-unit", "test-e2e", "test-e2e-oldest", "test-realworld", "test-compat"} {
		for _, line := range recipeOf(makefile, tier) {
			if strings.Contains(line, "$(GO) test") && !strings.Contains(line, "$(OFFLINE)") && !strings.Contains(line, "$(TIER)") {
				t.Errorf("%s runs go test with GOFLAGS of its own:\n\t%s", tier, line)
			}
		}
	}
}

// recipeOf returns the recipe lines of target in makefile, nil when there
// is no such rule.
func recipeOf(makefile, target string) []string {
	var recipe []string
	in := false
	for _, line := range strings.Split(makefile, "\n") {
		switch {
		case strings.HasPrefix(line, target+":"):
			in = true
			recipe = []string{}
		case in && strings.HasPrefix(line, "\t"):
			recipe = append(recipe, line)
		case in:
			return recipe
		}
	}
	return recipe
}

// TestTiersScriptReport runs hack/tiers.sh, make test's driver, on a
// Makefile of its own: one target that does seconds of CPU work, one that
// only sleeps, one that fails and one that must not run after it. The report
// must give each run target's wall and CPU time, mark the failure, and
// stop there with make's exit status.
func TestTiersScriptReport(t *testing.T) {
	if _, err := exec.LookPath("make"); err != nil {
		t.Skip("no make on this machine")
	}
	dir := t.TempDir()
	script, err := os.ReadFile("../../hack/tiers.sh")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "hack"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "hack", "tiers.sh"), script, 0o755); err != nil {
		t.Fatal(err)
	}
	// busy does a fixed amount of work, some seconds of one core's time
	// however long the machine takes to give it that: what the report
	// says of it does not depend on what else runs.
	makefile := "busy:\n\t@sh -c 'i=0; while [ $$i -lt 2000000 ]; do i=$$((i+1)); done'\n" +
		"idle:\n\t@sleep 2\n" +
		"broken:\n\t@false\n" +
		"after:\n\t@echo after ran\n"
	if err := os.WriteFile(filepath.Join(dir, "Makefile"), []byte(makefile), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("bash", filepath.Join(dir, "hack", "tiers.sh"), "busy", "idle", "broken", "after")
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 2 {
		t.Fatalf("tiers.sh exited with %v, want make's status 2:\n%s", err, out)
	}
	_, report, found := strings.Cut(string(out), "==> wall time per tier")
	if !found {
		t.Fatalf("tiers.sh printed no report:\n%s", out)
	}
	line := regexp.MustCompile(`(?m)^(\w+)\s+(\d+)m(\d\d)s\s+cpu\s+(\d+)m(\d\d)s\s+(\d+)% of \d+ cores(.*)$`)
	got := map[string][]string{}
	for _, m := range line.FindAllStringSubmatch(report, -1) {
		got[m[1]] = m
	}
	seconds := func(m []string, i int) int {
		minutes, _ := strconv.Atoi(m[i])
		secs, _ := strconv.Atoi(m[i+1])
		return 60*minutes + secs
	}
	if m := got["busy"]; m == nil || seconds(m, 4) < 1 {
		t.Errorf("busy did seconds of CPU work, the report gives no CPU time for it:\n%s", report)
	}
	if m := got["idle"]; m == nil || seconds(m, 2) < 2 || seconds(m, 4) > 0 {
		t.Errorf("idle slept 2 s, the report does not say so:\n%s", report)
	}
	if m := got["broken"]; m == nil || !strings.Contains(m[7], "FAILED (exit 2)") {
		t.Errorf("the report does not mark broken as failed:\n%s", report)
	}
	if _, ran := got["after"]; ran || strings.Contains(string(out), "after ran") {
		t.Errorf("tiers.sh went on after a failed target:\n%s", out)
	}

	// Lanes: busy beside idle and then broken; the step fails when broken
	// does, after busy has finished, and the lane stops at broken.
	cmd = exec.Command("bash", filepath.Join(dir, "hack", "tiers.sh"), "busy,idle+broken+after", "after")
	out, err = cmd.CombinedOutput()
	if !errors.As(err, &exit) || exit.ExitCode() != 2 {
		t.Fatalf("tiers.sh with lanes exited with %v, want make's status 2:\n%s", err, out)
	}
	_, report, _ = strings.Cut(string(out), "==> wall time per tier")
	got = map[string][]string{}
	for _, m := range line.FindAllStringSubmatch(report, -1) {
		got[m[1]] = m
	}
	if m := got["busy"]; m == nil || seconds(m, 4) < 1 {
		t.Errorf("busy ran in a lane, the report gives no CPU time for it:\n%s", out)
	}
	if m := got["idle"]; m == nil || seconds(m, 2) < 2 || !strings.Contains(string(out), "[idle] ==> make idle") {
		t.Errorf("idle ran in a lane of its own, marked, the report does not say so:\n%s", out)
	}
	if m := got["broken"]; m == nil || !strings.Contains(m[7], "FAILED (exit 2)") {
		t.Errorf("the report does not mark broken, in a lane, as failed:\n%s", out)
	}
	if _, ran := got["after"]; ran || strings.Contains(string(out), "after ran") {
		t.Errorf("tiers.sh went on after a lane failed:\n%s", out)
	}
}

// TestToolsAndFetchesOncePerMachine: make builds a tool from its tools
// module into the tools store (tools/store.mk) and links bin/ to it, and
// records a fetch step in the module cache; a clean clone of the same
// versions, on the same machine, links and fetches nothing. Dry runs (make
// -n) of the targets in this checkout with an empty store and module cache
// of their own, then with the entries the first run names in place.
func TestToolsAndFetchesOncePerMachine(t *testing.T) {
	if _, err := exec.LookPath("make"); err != nil {
		t.Skip("no make")
	}
	store, modcache := t.TempDir(), t.TempDir()
	makeIn := func(flags []string, targets ...string) string {
		t.Helper()
		args := append(append(flags, "--no-print-directory", "-C", "../.."), targets...)
		cmd := exec.Command("make", args...)
		// KUBEBUILDER_ASSETS names assets of the user's own: the envtest
		// build is asked for by name below.
		cmd.Env = append(os.Environ(), "TOOLS_STORE="+store, "GOMODCACHE="+modcache, "KUBEBUILDER_ASSETS=/assets")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("make %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	targets := []string{"envtest-all", "bin/kubebuilder", "bin/helm", "bin/certmanager", "bin/golangci-lint", "e2e-prerequisites"}
	first := makeIn([]string{"-n"}, targets...)
	// What the first run would make: each binary renamed into its entry,
	// the control plane moved into its, and the fetch stamp.
	made := regexp.MustCompile(`mv \S+\.tmp (\S+)|(`+regexp.QuoteMeta(store)+`/envtest-[0-9a-f]{16})\.\$\$\.tmp|touch (\S+/fetched-e2e-[0-9a-f]{16})`).FindAllStringSubmatch(first, -1)
	// A dry run prints a recursive make's recipes too: fetch-e2e's make
	// names the tools again.
	var entries []string
	add := func(e string) {
		if !slices.Contains(entries, e) {
			entries = append(entries, e)
		}
	}
	for _, m := range made {
		switch {
		case m[1] != "":
			add(m[1])
		case m[2] != "":
			for _, b := range []string{"kube-apiserver", "etcd", "kubectl", "kube-controller-manager"} {
				add(filepath.Join(m[2], b))
			}
		default:
			add(m[3])
		}
	}
	if len(entries) != 4+4+1 {
		t.Fatalf("the first run makes %d entries, want the four tools', the control plane's four binaries and the fetch stamp:\n%v\n%s", len(entries), entries, first)
	}
	for _, e := range entries {
		if !strings.HasPrefix(e, store) && !strings.HasPrefix(e, modcache) {
			t.Errorf("%s is in neither the tools store nor the module cache", e)
		}
		if err := os.MkdirAll(filepath.Dir(e), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(e, nil, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// The envtest recipe is one script, printed whole by a dry run: it runs,
	// linking a directory of the test's own.
	assets := filepath.Join(t.TempDir(), "k8s")
	if out := makeIn([]string{"ENVTEST_ASSETS_DIR=" + assets}, "envtest-all"); strings.Contains(out, "building") {
		t.Errorf("with the entries in place, make builds the control plane again:\n%s", out)
	}
	if target, err := os.Readlink(assets); err != nil || !strings.HasPrefix(target, store+"/envtest-") {
		t.Errorf("the control plane's directory links to %q (%v), want its entry in the store", target, err)
	}
	again := makeIn([]string{"-n"}, targets[1:]...)
	for _, step := range []string{"go build", "fetch-e2e", "go test"} {
		if strings.Contains(again, step) {
			t.Errorf("with the entries in place, make still runs %q:\n%s", step, again)
		}
	}
	for _, link := range []string{"bin/kubebuilder", "bin/helm", "bin/certmanager", "bin/golangci-lint"} {
		if !regexp.MustCompile(`ln -sfn ` + regexp.QuoteMeta(store) + `/\S+ ` + link + ` `).MatchString(again) {
			t.Errorf("with the entries in place, make does not link %s into the store:\n%s", link, again)
		}
	}
}

// TestCompatRunsEveryLongTest: test-compat runs, with the local Go, only the
// lean modules' tests that -short skips (test-unit runs the rest), by name
// and package (RUNTIME_LONG_TESTS, WEBHOOK_LONG_TESTS). Every test of those
// modules that skips with -short must be named there, in its package, or
// the gate would run it only on GO_NEXT.
func TestCompatRunsEveryLongTest(t *testing.T) {
	b, err := os.ReadFile("../../Makefile")
	if err != nil {
		t.Fatal(err)
	}
	makefile := string(b)
	for _, module := range []string{"runtime", "webhook"} {
		m := regexp.MustCompile(`(?m)^` + strings.ToUpper(module) + `_LONG_TESTS := (.*) -run '\^\((.*)\)\$\$'$`).FindStringSubmatch(makefile)
		if m == nil {
			t.Errorf("the Makefile has no %s_LONG_TESTS", strings.ToUpper(module))
			continue
		}
		pkgs, names := strings.Fields(m[1]), strings.Split(m[2], "|")
		root := filepath.Join("..", "..", module)
		err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(p, "_test.go") {
				return err
			}
			src, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(root, filepath.Dir(p))
			pkg := "./" + filepath.ToSlash(rel)
			if rel == "." {
				pkg = "."
			}
			for _, long := range longTests(string(src)) {
				if !slices.Contains(names, long) || !slices.Contains(pkgs, pkg) {
					t.Errorf("%s skips with -short, but %s_LONG_TESTS does not run it in %s", long, strings.ToUpper(module), pkg)
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}

// longTests returns the tests declared in src that skip when
// testing.Short() is true.
func longTests(src string) []string {
	var names []string
	for _, m := range regexp.MustCompile(`(?m)^func (Test\w+)\(t \*testing\.T\) \{\n(?:\t.*\n){0,3}?\tif testing\.Short\(\) \{`).FindAllStringSubmatch(src, -1) {
		names = append(names, m[1])
	}
	return names
}

// TestControlPlaneModulesShareTheGeneratorsVersions keeps the modules that
// build the control plane (tools/envtest) and its smoke test
// (tools/envtest/smoke) on the versions the generator's module requires of
// every module they require too, counting a replacement by a published
// version as that version: the same versions are the same build actions,
// so that the gate compiles client-go, the API server's libraries and the
// Kubernetes API types once for all three, not once each. With older
// golang.org/x/* in the control plane's module, the generator's module
// compiles client-go, k8s.io/api and k8s.io/apiserver v0.37.2 a second time
// from an empty cache (BENCHMARKS.md): 3 minutes of CPU.
func TestControlPlaneModulesShareTheGeneratorsVersions(t *testing.T) {
	main := requirements(t, "../../go.mod")
	for _, dir := range []string{"../../tools/envtest", "../../tools/envtest/smoke"} {
		for path, v := range requirements(t, dir+"/go.mod") {
			if w, ok := main[path]; ok && w != v {
				t.Errorf("%s requires %s %s, go.mod %s", strings.TrimPrefix(dir, "../../"), path, v, w)
			}
		}
	}
}

// requirements are the versions the go.mod at path requires, by module; a
// module replaced by another version of a module is at that version.
func requirements(t *testing.T, path string) map[string]string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	f, err := modfile.Parse(path, b, nil) // not ParseLax, which drops replace directives
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, r := range f.Require {
		out[r.Mod.Path] = r.Mod.Version
	}
	for _, r := range f.Replace {
		if _, ok := out[r.Old.Path]; ok && r.New.Version != "" {
			out[r.Old.Path] = r.New.Version
		}
	}
	return out
}

// TestOldestClusterIsInTheGate holds the README's oldest supported
// Kubernetes release to what the gate runs the end-to-end suite on: the
// release tools/envtest-<minor>/oldest.mk stamps and its module builds, in
// a tier of make test's.
func TestOldestClusterIsInTheGate(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^## Supported clusters\n\nKubernetes 1\.(\d+) to 1\.\d+`).FindSubmatch(readme)
	if m == nil {
		t.Fatal("the README names no oldest supported release (## Supported clusters: Kubernetes 1.N to ...)")
	}
	minor := string(m[1])
	dir := "../../tools/envtest-1." + minor
	mk, err := os.ReadFile(dir + "/oldest.mk")
	if err != nil {
		t.Fatalf("no control plane of the oldest release, 1.%s: %v", minor, err)
	}
	if !regexp.MustCompile(`(?m)^ENVTEST_OLDEST_K8S_MINOR\s*:= ` + minor + `$`).Match(mk) {
		t.Errorf("%s/oldest.mk stamps another release than 1.%s", dir, minor)
	}
	if v := requirements(t, dir+"/go.mod")["k8s.io/kubernetes"]; !strings.HasPrefix(v, "v1."+minor+".") {
		t.Errorf("%s/go.mod builds k8s.io/kubernetes %q, not 1.%s", dir, v, minor)
	}
	makefile, err := os.ReadFile("../../Makefile")
	if err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`(?m)^include tools/envtest-1\.` + minor + `/oldest\.mk$`).Match(makefile) {
		t.Errorf("the Makefile does not include %s/oldest.mk", dir)
	}
	if gate := recipeOf(string(makefile), "test"); len(gate) != 1 || !regexp.MustCompile(`[ ,+]test-e2e-oldest[,+ ]`).MatchString(gate[0]+" ") {
		t.Errorf("make test runs no test-e2e-oldest: %q", gate)
	}
}
