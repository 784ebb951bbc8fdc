package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/aymanbagabas/go-udiff"
)

// root is the module's root, from this package's directory.
const root = "../../../.."

// maxDiffLines bounds the diff a stale page prints: enough to see what
// changed, not a screenful of a regenerated page.
const maxDiffLines = 40

// The committed docs/markers.md and docs/commands.md are what the marker
// registry and the commands say now: a flag, a marker or a help text changed
// without make generate fails here, in the unit tier, before make verify.
func TestPagesAreCurrent(t *testing.T) {
	pages, err := render()
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range pages {
		rel := "docs/" + p.name
		committed, err := os.ReadFile(filepath.Join(root, rel))
		if err != nil {
			t.Errorf("%s: %v; run make generate", rel, err)
			continue
		}
		if string(committed) == string(p.content) {
			continue
		}
		diff := strings.Split(udiff.Unified("a/"+rel, "b/"+rel, string(committed), string(p.content)), "\n")
		if len(diff) > maxDiffLines {
			diff = append(diff[:maxDiffLines], "...")
		}
		t.Errorf("%s is stale: run make generate (- committed, + generated):\n%s", rel, strings.Join(diff, "\n"))
	}
}

// Rendering twice gives the same bytes: no map order or clock leaks in.
func TestPagesAreDeterministic(t *testing.T) {
	a, err := render()
	if err != nil {
		t.Fatal(err)
	}
	b, err := render()
	if err != nil {
		t.Fatal(err)
	}
	for i := range a {
		if string(a[i].content) != string(b[i].content) {
			t.Errorf("%s differs between two renders", a[i].name)
		}
	}
}

// link is a Markdown link's target: [text](target).
var link = regexp.MustCompile(`\]\(([^)\s]+)\)`)

// Every relative link of the README, CONTRIBUTING and docs/ names a file
// that exists and, with a #fragment into a Markdown page, a heading there.
func TestDocLinksResolve(t *testing.T) {
	pages, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	pages = append(pages, filepath.Join(root, "README.md"), filepath.Join(root, "CONTRIBUTING.md"), filepath.Join(root, "BENCHMARKS.md"))
	for _, page := range pages {
		text, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(root, page)
		for _, m := range link.FindAllStringSubmatch(withoutCode(string(text)), -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			if msg := resolve(page, target); msg != "" {
				t.Errorf("%s: link %s: %s", rel, target, msg)
			}
		}
	}
}

// resolve says what is wrong with the relative link target of page, or "".
func resolve(page, target string) string {
	path, frag, _ := strings.Cut(target, "#")
	file := page
	if path != "" {
		file = filepath.Join(filepath.Dir(page), path)
	}
	if _, err := os.Stat(file); err != nil {
		return "no such file"
	}
	if frag == "" || !strings.HasSuffix(file, ".md") {
		return ""
	}
	text, err := os.ReadFile(file)
	if err != nil {
		return err.Error()
	}
	if !headings(string(text))[frag] {
		return "no heading #" + frag
	}
	return ""
}

// headings is the set of GitHub anchors of a page's headings; a repeated
// heading's anchor takes -1, -2, ... as on GitHub.
func headings(text string) map[string]bool {
	set := map[string]bool{}
	for _, line := range strings.Split(withoutCode(text), "\n") {
		if !strings.HasPrefix(line, "#") {
			continue
		}
		h := strings.TrimSpace(strings.TrimLeft(line, "#"))
		a := anchor(h)
		for n := 1; set[a]; n++ {
			a = anchor(h) + "-" + strconv.Itoa(n)
		}
		set[a] = true
	}
	return set
}

// withoutCode blanks fenced code blocks, whose # lines are no headings and
// whose brackets are no links.
func withoutCode(text string) string {
	var b strings.Builder
	in := false
	for _, line := range strings.Split(text, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			in = !in
			b.WriteString("\n")
			continue
		}
		if !in {
			b.WriteString(line)
		}
		b.WriteString("\n")
	}
	return b.String()
}

// GitHub's anchors keep letters, digits, hyphens and underscores.
func TestAnchor(t *testing.T) {
	for heading, want := range map[string]string{
		"`+crdforge:hub`":           "crdforgehub",
		"`crdforge new-version`":    "crdforge-new-version",
		"crdforge's markers":        "crdforges-markers",
		"Shipping the webhook":      "shipping-the-webhook",
		"`+k8s:deepcopy-gen`":       "k8sdeepcopy-gen",
		"What `generate` tells you": "what-generate-tells-you",
	} {
		if got := anchor(heading); got != want {
			t.Errorf("anchor(%q) = %q, want %q", heading, got, want)
		}
	}
}
