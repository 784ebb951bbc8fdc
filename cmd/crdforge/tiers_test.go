package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestTiersRunOffline holds the Makefile to its promise that the unit,
// end-to-end and real-world tiers reach no network: every go test they run
// runs with $(OFFLINE), the module proxy off, so that a test that would
// still download a module fails in the gate (make test runs these recipes)
// rather than passing by chance. Each tier's downloads are a fetch step of
// their own (fetch-modules, $(FETCHED)-e2e, $(FETCHED)-realworld).
func TestTiersRunOffline(t *testing.T) {
	b, err := os.ReadFile("../../Makefile")
	if err != nil {
		t.Fatal(err)
	}
	makefile := string(b)
	if !regexp.MustCompile(`(?m)^OFFLINE\s*:=.*\bGOPROXY=off\b`).MatchString(makefile) {
		t.Fatal("the Makefile's OFFLINE does not set GOPROXY=off")
	}
	for _, tier := range []string{"test-unit", "test-e2e", "test-realworld"} {
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
	for _, tier := range []string{"test-unit", "test-e2e", "test-realworld", "test-compat"} {
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
