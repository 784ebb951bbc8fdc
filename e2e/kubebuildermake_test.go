package e2e

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// makeWithCrdforgeAlone swaps the project's manifests and generate targets
// for the ones docs/kubebuilder.md tells users to write (the built crdforge
// in place of `go tool crdforge`), removes what crdforge generated, and runs
// `make manifests generate` with no controller-gen to be found: the
// manifests they write must be the ones crdforge generate wrote, which the
// comparisons with controller-gen's checked, and the module must build.
func (p *kbProject) makeWithCrdforgeAlone(root, cf string) {
	p.t.Helper()
	targets := indentedBlock(p, filepath.Join(root, "docs", "kubebuilder.md"), "make")
	mk := p.read("Makefile")
	for _, target := range []string{"manifests", "generate"} {
		rule := regexp.MustCompile(`(?m)^\.PHONY: ` + target + `\n` + target + `:.*\n(\t.*\n)*`)
		if !rule.MatchString(mk) {
			p.t.Fatalf("the scaffolded Makefile has no %s target to replace", target)
		}
		mk = rule.ReplaceAllString(mk, "")
	}
	p.write("Makefile", mk+"\n"+strings.ReplaceAll(targets, "go tool crdforge", cf))

	var manifests []string
	for _, m := range []string{"config/rbac/role.yaml", "config/webhook/manifests.yaml"} {
		if fileExists(filepath.Join(p.dir, m)) { // no admission webhook, no manifests.yaml
			manifests = append(manifests, m)
		}
	}
	crds, _ := filepath.Glob(filepath.Join(p.dir, "config", "crd", "bases", "*.yaml"))
	for _, c := range crds {
		rel, _ := filepath.Rel(p.dir, c)
		manifests = append(manifests, rel)
	}
	generated, _ := filepath.Glob(filepath.Join(p.dir, "api", "*", "zz_generated.*.go"))
	want := map[string]string{}
	for _, m := range manifests {
		want[m] = p.read(m)
	}
	for _, f := range append(generated, crds...) {
		if err := os.Remove(f); err != nil {
			p.t.Fatal(err)
		}
	}
	p.mustRun("make", "manifests", "generate", "CONTROLLER_GEN="+filepath.Join(p.dir, "bin", "no-controller-gen"))
	for _, m := range manifests {
		if got := p.read(m); got != want[m] {
			p.t.Errorf("make manifests wrote %s other than crdforge generate did:\n%s\nwant:\n%s", m, got, want[m])
		}
	}
	for _, f := range generated {
		if !fileExists(f) {
			p.t.Errorf("make generate did not write %s", f)
		}
	}
	p.mustRun("go", "build", "./...")
}

// indentedBlock returns the body of the one fenced code block of language
// lang in the Markdown page at path, dedented: docs/kubebuilder.md's
// Makefile targets sit in a list item, which Blocks does not read.
func indentedBlock(p *kbProject, path, lang string) string {
	p.t.Helper()
	page, err := os.ReadFile(path)
	if err != nil {
		p.t.Fatal(err)
	}
	block := regexp.MustCompile("(?m)^( *)```"+lang+"\n((?:.*\n)*?) *```\n").FindAllSubmatch(page, -1)
	if len(block) != 1 {
		p.t.Fatalf("%s: %d blocks of %s, want 1", path, len(block), lang)
	}
	indent := string(block[0][1])
	var body strings.Builder
	for _, line := range strings.SplitAfter(string(block[0][2]), "\n") {
		body.WriteString(strings.TrimPrefix(line, indent))
	}
	return body.String()
}
