package templates

import (
	"strings"
	"testing"
)

func TestNames(t *testing.T) {
	got := strings.Join(Names(), " ")
	for _, want := range []string{"webhook/deployment.yaml", "webhook/kustomization.yaml", "certs/secret.yaml"} {
		if !strings.Contains(got, want) {
			t.Errorf("Names() = %s, lacks %s", got, want)
		}
	}
}

func TestRenderErrors(t *testing.T) {
	if _, err := Render("webhook/nope.yaml", nil); err == nil || !strings.Contains(err.Error(), "webhook/deployment.yaml") {
		t.Errorf("unknown template: %v, want an error listing the known ones", err)
	}
	if _, err := Render("webhook/namespace.yaml", map[string]string{"Namespace": "x"}); err == nil {
		t.Errorf("a missing key rendered without error")
	}
	out, err := Render("webhook/namespace.yaml", map[string]string{"Namespace": "ns", "Project": "p"})
	if err != nil || !strings.Contains(string(out), "name: ns\n") {
		t.Errorf("Render = %q, %v", out, err)
	}
}

// indent shifts every line of a block, and adds no line of its own.
func TestIndent(t *testing.T) {
	if got, want := indent(2, "a: 1\nb:\n  c: 2\n"), "  a: 1\n  b:\n    c: 2"; got != want {
		t.Errorf("indent = %q, want %q", got, want)
	}
}
