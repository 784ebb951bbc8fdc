package main

import (
	"strings"
	"unicode"
)

// escape makes help text, written for a terminal, safe as Markdown prose:
// <name> would be read as an HTML tag and vanish, [a-z] as a link, and a |
// would end a table cell. Backticks and asterisks are left alone: help text
// that has them means code and emphasis.
func escape(s string) string {
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune(`\<>[]|`, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// cell is text for one table cell: escaped, on one line.
func cell(s string) string {
	return escape(strings.Join(strings.Fields(s), " "))
}

// code is s as a Markdown code span, with enough backticks around it that
// its own backticks do not end it.
func code(s string) string {
	fence := "`"
	for strings.Contains(s, fence) {
		fence += "`"
	}
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") {
		return fence + " " + s + " " + fence
	}
	return fence + s + fence
}

// fenced is s in a fenced code block of language lang.
func fenced(lang, s string) string {
	fence := "```"
	for strings.Contains(s, fence) {
		fence += "`"
	}
	return fence + lang + "\n" + strings.TrimRight(s, "\n") + "\n" + fence + "\n"
}

// prose turns help text into Markdown: paragraphs escaped, and the blocks
// whose lines are all indented (the examples in controller-tools' help) as
// code blocks, unescaped and dedented.
func prose(s string) string {
	var blocks []string
	for _, block := range strings.Split(strings.TrimSpace(s), "\n\n") {
		if block = strings.Trim(block, "\n"); block == "" {
			continue
		}
		if indented(block) {
			block = dedent(block)
			if !strings.HasPrefix(block, "- ") && !strings.HasPrefix(block, "* ") {
				blocks = append(blocks, fenced("", block))
				continue
			}
			// An indented list is a list, its continuation lines
			// indented under its items.
		}
		lines := strings.Split(block, "\n")
		for i, l := range lines {
			lines[i] = escape(strings.TrimRight(l, " \t"))
			if !strings.HasPrefix(l, "  ") {
				lines[i] = strings.TrimLeft(lines[i], " \t")
			}
		}
		blocks = append(blocks, strings.Join(lines, "\n")+"\n")
	}
	return strings.Join(blocks, "\n")
}

// indented reports whether every non-blank line of block starts with a tab
// or two spaces.
func indented(block string) bool {
	for _, l := range strings.Split(block, "\n") {
		if strings.TrimSpace(l) != "" && !strings.HasPrefix(l, "\t") && !strings.HasPrefix(l, "  ") {
			return false
		}
	}
	return true
}

// dedent removes the indentation that every non-blank line of block shares.
func dedent(block string) string {
	lines := strings.Split(block, "\n")
	prefix, first := "", true
	for _, l := range lines {
		if strings.TrimSpace(l) == "" {
			continue
		}
		lead := l[:len(l)-len(strings.TrimLeft(l, " \t"))]
		if first {
			prefix, first = lead, false
		}
		for !strings.HasPrefix(lead, prefix) {
			prefix = prefix[:len(prefix)-1]
		}
	}
	for i, l := range lines {
		lines[i] = strings.TrimPrefix(l, prefix)
	}
	return strings.Join(lines, "\n")
}

// anchor is the fragment GitHub gives a heading: lower case, spaces as
// hyphens, every other character but letters, digits, '-' and '_' dropped.
func anchor(heading string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(heading) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}
