package main

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// numberWords spell the counts ARCHITECTURE.md writes out.
var numberWords = []string{"zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve"}

// architecture is ARCHITECTURE.md's text.
func architecture(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile("../../ARCHITECTURE.md")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// ARCHITECTURE.md names the modules crdforge ships, as many as there are:
// the repository's go.mod files but the tools modules' (tools/), which
// only build what tests run, and the examples' and test cases'.
func TestArchitectureNamesEveryModule(t *testing.T) {
	doc := architecture(t)
	var modules []string
	err := filepath.WalkDir("../..", func(path string, d os.DirEntry, err error) error {
		switch {
		case err != nil:
			return err
		case d.IsDir() && slices.Contains([]string{"tools", "testdata", "examples", "bin", ".git"}, d.Name()):
			return filepath.SkipDir
		case d.Name() == "go.mod":
			modules = append(modules, modulePath(t, path))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	heading := "## " + strings.ToUpper(numberWords[len(modules)][:1]) + numberWords[len(modules)][1:] + " modules"
	if !strings.Contains(doc, heading) {
		t.Errorf("ARCHITECTURE.md has no %q heading for the %d modules %v", heading, len(modules), modules)
	}
	for _, h := range regexp.MustCompile(`(?m)^#+ (\w+) modules`).FindAllStringSubmatch(doc, -1) {
		if n := slices.Index(numberWords, strings.ToLower(h[1])); n >= 0 && n != len(modules) {
			t.Errorf("ARCHITECTURE.md: %q, but there are %d modules", strings.TrimSpace(h[0]), len(modules))
		}
	}
	for _, m := range modules {
		if !strings.Contains(doc, "| `"+m+"` |") {
			t.Errorf("ARCHITECTURE.md's module table does not name %s", m)
		}
	}
}

// modulePath is the module line of the go.mod at path.
func modulePath(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^module (\S+)`).FindSubmatch(b)
	if m == nil {
		t.Fatalf("%s has no module line", path)
	}
	return string(m[1])
}

// ARCHITECTURE.md lists the generators as they are: the packages under
// generators/ but the pipeline and what the generators share, in its
// package map and in the count the command table gives.
func TestArchitectureListsEveryGenerator(t *testing.T) {
	doc := architecture(t)
	shared := []string{"pipeline", "plan", "model", "load"}
	var gens []string
	for _, p := range list(t) {
		name, ok := strings.CutPrefix(p.path, "generators/")
		if !ok || strings.Contains(name, "/") || slices.Contains(shared, name) || p.goFiles == 0 {
			continue
		}
		gens = append(gens, name)
	}
	m := regexp.MustCompile(`(?m)^generators/\{([a-z,]+)\}`).FindStringSubmatch(doc)
	if m == nil {
		t.Fatal("ARCHITECTURE.md's package map has no generators/{...} line")
	}
	listed := strings.Split(m[1], ",")
	slices.Sort(listed)
	slices.Sort(gens)
	if !slices.Equal(listed, gens) {
		t.Errorf("ARCHITECTURE.md lists the generators %v, generators/ holds %v", listed, gens)
	}
	if count := "the " + numberWords[len(gens)] + " generators"; !strings.Contains(doc, count) {
		t.Errorf("ARCHITECTURE.md does not say %q", count)
	}
}
