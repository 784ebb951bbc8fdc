package minimums

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The lean modules share one set of minimums, and the tables that tell
// users what their API module requires (the README's, docs/setup.md's)
// state it in one row naming both modules: Needs holds each module to its
// go.mod (TestNeedsAreTheLeanModulesGoMods), this test holds the tables to
// Needs.
func TestTablesStateTheLeanModulesMinimums(t *testing.T) {
	if Runtime.Go != Webhook.Go || !slices.Equal(Runtime.Require, Webhook.Require) {
		t.Fatalf("the lean modules' minimums differ: runtime %v, webhook %v; the README states one row for both", Runtime, Webhook)
	}
	want := "Go " + Runtime.Go
	for _, r := range Runtime.Require {
		want += ", " + strings.TrimPrefix(r.Path, "sigs.k8s.io/") + " " + r.Version
	}
	for _, doc := range []string{"README.md", "docs/setup.md"} {
		rows := minimumsRows(t, filepath.Join("..", "..", doc))
		if len(rows) != 1 {
			t.Errorf("%s: the table of minimums has %d rows, want one for both lean modules", doc, len(rows))
			continue
		}
		cells := rows[0]
		for _, m := range []string{Runtime.Module, Webhook.Module} {
			if !strings.Contains(cells[1], "`"+m+"`") {
				t.Errorf("%s: the table's row does not name %s", doc, m)
			}
		}
		if got := strings.ReplaceAll(strings.ReplaceAll(cells[2], "**", ""), "sigs.k8s.io/", ""); got != want {
			t.Errorf("%s: the table says the modules need %q, their go.mod files %q", doc, got, want)
		}
	}
}

// minimumsRows are the cells of each row of the table headed "imported by
// | module | needs at least" in the Markdown file at path.
func minimumsRows(t *testing.T, path string) [][]string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var rows [][]string
	in := false
	for _, line := range strings.Split(string(b), "\n") {
		switch {
		case strings.HasPrefix(line, "| imported by | module | needs at least |"):
			in = true
		case in && strings.HasPrefix(line, "| ---"):
		case in && strings.HasPrefix(line, "|"):
			cells := strings.Split(strings.Trim(line, "|"), " | ")
			for i := range cells {
				cells[i] = strings.TrimSpace(cells[i])
			}
			if len(cells) != 3 {
				t.Fatalf("%s: a row of the minimums table has %d cells: %s", path, len(cells), line)
			}
			rows = append(rows, cells)
		default:
			in = false
		}
	}
	if rows == nil {
		t.Fatalf("%s has no table headed \"imported by | module | needs at least\"", path)
	}
	return rows
}
