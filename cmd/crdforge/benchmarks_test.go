package main

import (
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// commitHash is a word that reads as an abbreviated or full commit hash:
// hex digits, at least seven, one of them a decimal digit (so that words
// such as "defaced" are not taken for one).
var commitHash = regexp.MustCompile(`\b[0-9a-f]{7,40}\b`)

// isCommitHash reports whether word reads as a commit hash.
func isCommitHash(word string) bool {
	return commitHash.MatchString(word) && strings.ContainsAny(word, "0123456789")
}

// hashesIn lists the words of s that read as commit hashes.
func hashesIn(s string) []string {
	var hashes []string
	for _, w := range commitHash.FindAllString(s, -1) {
		if isCommitHash(w) {
			hashes = append(hashes, w)
		}
	}
	return hashes
}

// benchBlock is a run of BENCHMARKS.md's lines outside code blocks: a
// table (its lines start with "|") or prose. line is its first line's
// number.
type benchBlock struct {
	line  int
	table bool
	lines []string
}

// benchBlocks splits a Markdown text into tables and prose, leaving out
// fenced code blocks: a command may name a commit (BASE=<commit>).
func benchBlocks(text string) []benchBlock {
	var blocks []benchBlock
	fenced := false
	for i, line := range strings.Split(text, "\n") {
		trimmed := strings.TrimSpace(line)
		if strings.HasPrefix(trimmed, "```") {
			fenced = !fenced
			continue
		}
		if fenced || trimmed == "" {
			continue
		}
		table := strings.HasPrefix(trimmed, "|")
		if n := len(blocks); n > 0 && blocks[n-1].table == table && blocks[n-1].line+len(blocks[n-1].lines) == i+1 {
			blocks[n-1].lines = append(blocks[n-1].lines, trimmed)
			continue
		}
		blocks = append(blocks, benchBlock{line: i + 1, table: table, lines: []string{trimmed}})
	}
	return blocks
}

// cells splits a table row into its trimmed cells.
func cells(row string) []string {
	row = strings.TrimSuffix(strings.TrimPrefix(row, "|"), "|")
	out := strings.Split(row, "|")
	for i := range out {
		out[i] = strings.TrimSpace(out[i])
	}
	return out
}

// tableProblems says what is wrong with a figure table: it has no commit
// column, or a row whose commit cell names no commit. A cell names one
// with a hash, alone or after "recorded in" (the commit that added a
// figure whose measurement named none).
func tableProblems(b benchBlock) []string {
	col := slices.Index(cells(b.lines[0]), "commit")
	if col < 0 {
		return []string{"a table without a commit column"}
	}
	var problems []string
	for _, row := range b.lines[2:] {
		c := cells(row)
		if col >= len(c) || !isCommitHash(strings.TrimPrefix(c[col], "recorded in ")) {
			problems = append(problems, "a row whose commit cell is not a commit: "+row)
		}
	}
	return problems
}

// benchmarkProblems lists, by line, what keeps a BENCHMARKS.md text from
// giving each figure its commit in a table: a table without a commit
// column, a row without a commit, or prose naming a commit (history, which
// lives in git).
func benchmarkProblems(text string) []string {
	var problems []string
	for _, b := range benchBlocks(text) {
		var found []string
		if b.table {
			found = tableProblems(b)
		} else if hashes := hashesIn(strings.Join(b.lines, "\n")); len(hashes) > 0 {
			found = []string{"prose naming commits " + strings.Join(hashes, ", ")}
		}
		for _, p := range found {
			problems = append(problems, "line "+strconv.Itoa(b.line)+": "+p)
		}
	}
	return problems
}

// BENCHMARKS.md gives every figure the commit it was measured at in a
// table column, and tells no history in its prose.
func TestBenchmarksGiveEachFigureItsCommit(t *testing.T) {
	b, err := os.ReadFile("../../BENCHMARKS.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range benchmarkProblems(string(b)) {
		t.Errorf("BENCHMARKS.md: %s", p)
	}
}

// The reader finds each kind of problem, and none in a well-formed page.
func TestBenchmarkProblems(t *testing.T) {
	for _, tt := range []struct {
		name, text string
		want       []string
	}{
		{"a table with commits", "| kinds | commit | ms |\n| --- | --- | ---: |\n| 10 | 1d299f0 | 5 |\n| 100 | recorded in 0123a5e | 9 |\n", nil},
		{"a command naming a commit", "```sh\nBASE=1d299f0 make bench\n```\n", nil},
		{"a word of hex letters", "The benchmark is defaced by nothing.\n", nil},
		{"a table without a commit column", "| kinds | ms |\n| --- | ---: |\n| 10 | 5 |\n", []string{"line 1: a table without a commit column"}},
		{"a row without a commit", "| kinds | commit | ms |\n| --- | --- | ---: |\n| 10 | | 5 |\n", []string{"line 1: a row whose commit cell is not a commit: | 10 | | 5 |"}},
		{"prose naming a commit", "# B\n\nWhat a6f447b changed:\nmore.\n", []string{"line 3: prose naming commits a6f447b"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := benchmarkProblems(tt.text); !slices.Equal(got, tt.want) {
				t.Errorf("benchmarkProblems = %q, want %q", got, tt.want)
			}
		})
	}
}
