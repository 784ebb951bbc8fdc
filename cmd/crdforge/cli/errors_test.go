package cli

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/crdforge/crdforge/internal/diag"
)

// TestCommandErrorsAreDiagnostics runs each command's failure paths that
// need no cluster (bad arguments and flags, no kubeconfig, missing or bad
// files) and holds every line it prints to the form generate prints its
// diagnostics in: a headline of at most diag.MaxHeadline characters after
// its position or "crdforge <command>:", then "  = note:" and "  = help:"
// lines, a note's further lines indented under it.
func TestCommandErrorsAreDiagnostics(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "missing")
	notYAML := filepath.Join(dir, "bad.yaml")
	if err := os.WriteFile(notYAML, []byte("{not: [yaml"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("KUBECONFIG", missing)
	t.Setenv("KUBERNETES_SERVICE_HOST", "")
	for _, args := range [][]string{
		{"nope"},
		{"generate", "--nope"},
		{"generate", "--output", "yaml"},
		{"generate", "--webhook-codec", "bogus"},
		{"generate", "--fit-crd-bytes=-1"},
		{"generate", "--only", "nope"},
		{"generate", "--header-file", missing},
		{"check"},
		{"check", "--against", "HEAD", "--output", "bogus"},
		{"check", "--against-files", missing},
		{"check", "--against-files", notYAML},
		{"check", "--against-cluster"},
		{"certs", "--valid-for=-1h"},
		{"certs", "--renew", "--force-ca"},
		{"certs", "--renew"},
		{"migrate"},
		{"migrate", "--chunk-size", "0", "things.example.com"},
		{"migrate", "things.example.com"},
		{"migrate", "--kubeconfig", missing, "things.example.com"},
		{"migrate", "--print", "things.example.com"},
		{"status"},
		{"status", "-o", "yaml", "things.example.com"},
		{"status", "things.example.com"},
		{"new-version"},
		{"new-version", "v2"},
		{"markers", "extra"},
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			code, _, stderr := run(t, dir, args...)
			if code == ExitOK {
				t.Fatalf("exit code 0, want a failure; stderr:\n%s", stderr)
			}
			checkDiagnosticForm(t, stderr)
		})
	}
}

// diagnosticHead is what starts a headline: a position, or the command that
// reports it.
var diagnosticHead = regexp.MustCompile(`^(?:[^ :]+(?::\d+){0,2}|crdforge(?: [a-z-]+)?): (?:warning: )?`)

// checkDiagnosticForm fails t for every line of text that is not part of a
// diagnostic as diag.Diagnostic.Format writes it, and for every headline
// longer than diag.MaxHeadline.
func checkDiagnosticForm(t *testing.T, text string) {
	t.Helper()
	if strings.TrimSpace(text) == "" {
		t.Errorf("nothing printed")
	}
	inNote := false
	for _, line := range strings.Split(strings.TrimRight(text, "\n"), "\n") {
		switch {
		case strings.HasPrefix(line, "  = note: "), strings.HasPrefix(line, "  = help: "):
			inNote = true
		case inNote && strings.HasPrefix(line, "          "):
			// a note's further lines
		default:
			inNote = false
			head := diagnosticHead.FindString(line)
			if head == "" {
				t.Errorf("not a diagnostic's headline: %q", line)
				continue
			}
			if n := len([]rune(line[len(head):])); n > diag.MaxHeadline {
				t.Errorf("a headline of %d characters (at most %d; the rest goes in notes):\n%s", n, diag.MaxHeadline, line)
			}
		}
	}
}
