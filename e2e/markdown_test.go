package e2e

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestShellStepsAreWhatAUserTypes(t *testing.T) {
	for _, tt := range []struct {
		name, body string
		want       []string
	}{
		{"one command a line", "go mod tidy\ncrdforge generate ./...\n", []string{"go mod tidy", "crdforge generate ./..."}},
		{"blank and comment lines are not commands", "# first\n\ngo mod tidy   # tidy\n", []string{"go mod tidy   # tidy"}},
		{"a backslash joins the next line", "go mod edit -require=a \\\n            -replace=b\n", []string{"go mod edit -require=a              -replace=b"}},
		{"a here-document stays with its command", "kubectl apply -f - <<'EOF'\nkind: X\n# not a comment here\nEOF\nkubectl get x\n",
			[]string{"kubectl apply -f - <<'EOF'\nkind: X\n# not a comment here\nEOF", "kubectl get x"}},
		{"<<- ends at a tab-indented delimiter", "cat <<-END\n\tx\n\tEND\n", []string{"cat <<-END\n\tx\n\tEND"}},
		{"a here-string is not a here-document", "cat <<<word\nls\n", []string{"cat <<<word", "ls"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ShellSteps(tt.body)
			if err != nil || !slices.Equal(got, tt.want) {
				t.Errorf("ShellSteps(%q) = %q, %v; want %q", tt.body, got, err, tt.want)
			}
		})
	}
	for _, body := range []string{"cat <<EOF\nnever ends\n", "go mod edit \\\n"} {
		if got, err := ShellSteps(body); err == nil {
			t.Errorf("ShellSteps(%q) = %q, want an error", body, got)
		}
	}
}

func TestPagePlanSaysOfEveryBlockWhetherItRuns(t *testing.T) {
	page := "# p\n\n```sh\necho hi\n```\n\n```text\nhi\n```\n\n```go\n// api/v1/types.go\npackage v1\n```\n\n```diff\n--- a/x\n+++ b/x\n```\n"
	plan, err := PagePlan(blocksOf(t, page))
	if err != nil {
		t.Fatal(err)
	}
	if len(plan) != 4 || !slices.Equal(plan[0].Commands, []string{"echo hi"}) || plan[2].File != "api/v1/types.go" || plan[2].Content != "package v1\n" {
		t.Errorf("plan = %+v", plan)
	}
	for _, tt := range []struct{ name, page, want string }{
		{"a block without an info string", "```\nls\n```\n", "a ``` block"},
		{"a shell block under another name", "```bash\nls\n```\n", "a ```bash block"},
		{"output that follows no command", "```text\nhi\n```\n", "none is"},
		{"a go block that names no file", "```go\npackage v1\n```\n", "starts with a comment naming the file"},
		{"an empty shell block", "```sh\n# nothing\n```\n", "no command"},
		{"a diff that git apply cannot read", "```diff\n+x\n```\n", "--- a/"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := PagePlan(blocksOf(t, tt.page)); err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("PagePlan: %v, want an error with %q", err, tt.want)
			}
		})
	}
}

func TestOutputShows(t *testing.T) {
	got := "wrote a\nwrote b\nok  \texample.com/x\t0.612s\ncrdforge: 2 file(s) written\n"
	for _, tt := range []struct {
		want string
		ok   bool
	}{
		{"wrote a\ncrdforge: 2 file(s) written\n", true},                 // lines may be left out
		{"ok example.com/x ...\n", true},                                 // ... is what varies; spaces are spaces
		{"...\nwrote b\n", true},                                         // a line of ... stands for one line
		{"wrote b\nwrote a\n", false},                                    // in order
		{"wrote\n", false},                                               // whole lines
		{"crdforge: 3 file(s) written\n", false},                         // what the page says must be printed
		{"ok example.com/x 0.612s\ncrdforge: 2 file(s) written\n", true}, // tabs match spaces
	} {
		if err := OutputShows(tt.want, got); (err == nil) != tt.ok {
			t.Errorf("OutputShows(%q): %v, want ok=%v", tt.want, err, tt.ok)
		}
	}
}

func TestREADMEStepsJoinContinuedLines(t *testing.T) {
	root, err := RepoRoot()
	if err != nil {
		t.Skip(err)
	}
	steps, err := READMESteps(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	if len(steps) == 0 || !strings.HasPrefix(steps[0], "(cd $CRDFORGE && go install") {
		t.Errorf("steps = %q, want the install line first", steps)
	}
	for _, s := range steps {
		if strings.Contains(s, "\n") || strings.HasSuffix(s, `\`) {
			t.Errorf("step %q is not one line", s)
		}
	}
}

func blocksOf(t *testing.T, page string) []Block {
	t.Helper()
	p := filepath.Join(t.TempDir(), "page.md")
	if err := os.WriteFile(p, []byte(page), 0o644); err != nil {
		t.Fatal(err)
	}
	b, err := Blocks(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
