package e2e

import (
	"bufio"
	"fmt"
	"os"
	"regexp"
	"strings"
)

// Block is one fenced code block of a Markdown page: what tests that follow
// a page word for word read from it.
type Block struct {
	// Lang is the first word of the opening fence's info string ("sh",
	// "text", "go"), "" when it has none.
	Lang string
	// Line is the opening fence's line, from 1, for messages that send the
	// reader to the page.
	Line int
	// Body is the lines between the fences, each ending in "\n".
	Body string
	// Before is the last non-blank line above the opening fence: an HTML
	// comment there can say what a test does with the block, where readers
	// of the rendered page do not see it.
	Before string
}

// Blocks returns the fenced code blocks of the Markdown file at path, in
// order. Only fences at the start of a line count: the pages these tests
// read indent none.
func Blocks(path string) ([]Block, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer func() { _ = f.Close() }()
	var (
		blocks []Block
		open   *Block
		before string
		n      int
	)
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		n++
		line := sc.Text()
		switch {
		case open == nil && strings.HasPrefix(line, "```"):
			open = &Block{Lang: firstWord(strings.TrimPrefix(line, "```")), Line: n, Before: before}
		case open != nil && strings.TrimSpace(line) == "```":
			blocks = append(blocks, *open)
			open, before = nil, ""
		case open != nil:
			open.Body += line + "\n"
		case strings.TrimSpace(line) != "":
			before = line
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if open != nil {
		return nil, fmt.Errorf("%s:%d: a code block that is never closed", path, open.Line)
	}
	return blocks, nil
}

func firstWord(s string) string {
	if f := strings.Fields(s); len(f) > 0 {
		return f[0]
	}
	return ""
}

// heredoc finds a here-document's operator and delimiter (<<EOF, <<'EOF',
// <<-EOF); the first group keeps a here-string (<<<) from matching.
var heredoc = regexp.MustCompile(`(^|[^<])<<(-?)[ \t]*(['"]?)([A-Za-z_][A-Za-z0-9_]*)(['"]?)`)

// ShellSteps splits a shell block into the commands a user types, one at a
// time, as the shell reads them: a line ending in `\` continues on the next
// (joined with a space); a here-document stays with the command that reads
// it, up to its delimiter; blank lines and lines that are only a comment
// are not commands.
func ShellSteps(body string) ([]string, error) {
	var steps []string
	cont := ""
	lines := strings.Split(strings.TrimSuffix(body, "\n"), "\n")
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		if cont == "" && (strings.TrimSpace(line) == "" || strings.HasPrefix(strings.TrimSpace(line), "#")) {
			continue
		}
		if strings.HasSuffix(line, `\`) {
			cont += strings.TrimSuffix(line, `\`) + " "
			continue
		}
		step := strings.TrimSpace(cont + line)
		cont = ""
		if m := heredoc.FindStringSubmatch(step); m != nil {
			end, tabs := m[4], m[2] == "-"
			var doc []string
			for i++; ; i++ {
				if i == len(lines) {
					return nil, fmt.Errorf("the here-document of %q never ends (no line %q)", step, end)
				}
				doc = append(doc, lines[i])
				if l := lines[i]; l == end || (tabs && strings.TrimLeft(l, "\t") == end) {
					break
				}
			}
			step += "\n" + strings.Join(doc, "\n")
		}
		steps = append(steps, step)
	}
	if cont != "" {
		return nil, fmt.Errorf("the last command continues (`\\`) past the end of its block: %q", cont)
	}
	return steps, nil
}

// readmeMarker starts the comment above the README's adoption block.
const readmeMarker = "<!-- e2e/newcomer_test.go runs"

// READMESteps returns the shell lines of the README's adoption block (the
// one after the comment that names e2e/newcomer_test.go), continuation
// lines joined: the steps a user takes, which tests take word for word.
func READMESteps(readme string) ([]string, error) {
	blocks, err := Blocks(readme)
	if err != nil {
		return nil, err
	}
	for _, b := range blocks {
		if b.Lang == "sh" && strings.HasPrefix(b.Before, readmeMarker) {
			steps, err := ShellSteps(b.Body)
			if err != nil {
				return nil, fmt.Errorf("%s:%d: %w", readme, b.Line, err)
			}
			if len(steps) > 0 {
				return steps, nil
			}
		}
	}
	return nil, fmt.Errorf("%s: no setup block after the e2e marker", readme)
}
