package main

import (
	"os"
	"regexp"
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
