package e2e

import (
	"fmt"
	"regexp"
	"strings"
)

// PageStep is what a reader does with one block of a page that a test
// follows word for word.
type PageStep struct {
	Block Block
	// Commands are a ```sh block's commands (ShellSteps), in order.
	Commands []string
	// File is the path a ```go block is the content of, relative to the
	// directory the commands above it left the reader in; Content is that
	// content: the block without its first line.
	File, Content string
}

// goFileLine is a ```go block's first line, which names the file the block
// is: // api/v1alpha1/database_types.go
var goFileLine = regexp.MustCompile(`^// ([\w./-]+\.go)$`)

// PagePlan reads what each block of a page asks of its reader, by the
// page's conventions, which its readers see as they read:
//
//   - ```sh: commands to type. All of them run, in order, in one session,
//     and each must exit 0.
//   - ```text: what the commands of the ```sh block just above print; see
//     OutputShows.
//   - ```go: a file to write. Its first line is a comment that names it;
//     the rest is its content.
//   - ```diff: a change to files, as `git diff` prints it, to make in an
//     editor; a test applies it with `git apply`.
//
// Any other block, one without an info string included, is an error: on a
// page that a test follows, every block says whether it runs.
func PagePlan(blocks []Block) ([]PageStep, error) {
	var plan []PageStep
	for i, b := range blocks {
		s := PageStep{Block: b}
		switch b.Lang {
		case "sh":
			cmds, err := ShellSteps(b.Body)
			if err != nil {
				return nil, fmt.Errorf("line %d: %w", b.Line, err)
			}
			if len(cmds) == 0 {
				return nil, fmt.Errorf("line %d: a ```sh block with no command in it", b.Line)
			}
			s.Commands = cmds
		case "text":
			if i == 0 || blocks[i-1].Lang != "sh" {
				return nil, fmt.Errorf("line %d: a ```text block shows what the ```sh block just above it prints, and none is", b.Line)
			}
		case "go":
			first, rest, _ := strings.Cut(b.Body, "\n")
			m := goFileLine.FindStringSubmatch(first)
			if m == nil {
				return nil, fmt.Errorf("line %d: a ```go block starts with a comment naming the file it is (// api/v1/types.go), not %q", b.Line, first)
			}
			s.File, s.Content = m[1], rest
		case "diff":
			if !strings.HasPrefix(b.Body, "--- a/") {
				return nil, fmt.Errorf("line %d: a ```diff block is a change as `git diff` prints it, from its --- a/ line", b.Line)
			}
		default:
			return nil, fmt.Errorf("line %d: a ```%s block: this page's blocks are ```sh (commands, which run), ```text (their output), ```go (a file) or ```diff (a change)", b.Line, b.Lang)
		}
		plan = append(plan, s)
	}
	return plan, nil
}

// OutputShows reports whether want, a ```text block, shows what got, the
// output of the commands above it, holds: each of its non-blank lines must
// be a line of got, in order, where `...` stands for any text and a run of
// spaces or tabs for any other. It returns the first line that is not.
func OutputShows(want, got string) error {
	var have []string
	for _, l := range strings.Split(got, "\n") {
		have = append(have, strings.Join(strings.Fields(l), " "))
	}
	i := 0
	for _, w := range strings.Split(want, "\n") {
		fields := strings.Fields(w)
		if len(fields) == 0 {
			continue
		}
		parts := strings.Split(strings.Join(fields, " "), "...")
		for k := range parts {
			parts[k] = regexp.QuoteMeta(parts[k])
		}
		re := regexp.MustCompile("^" + strings.Join(parts, ".*") + "$")
		for i < len(have) && !re.MatchString(have[i]) {
			i++
		}
		if i == len(have) {
			return fmt.Errorf("the output has no line %q (after the lines before it)", w)
		}
		i++
	}
	return nil
}
