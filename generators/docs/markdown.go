package docs

import "strings"

// escape makes s safe in a Markdown table cell: one line, and no "|" that
// would end the cell. Schema text (descriptions, patterns, CEL rules) holds
// both.
func escape(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	return strings.ReplaceAll(s, "|", `\|`)
}

// code is s as an inline code span in a table cell. A span holding a
// backtick is fenced with two, and padded so that a backtick at either end
// does not join the fence (CommonMark's rule).
func code(s string) string {
	s = escape(s)
	if !strings.Contains(s, "`") {
		return "`" + s + "`"
	}
	return "`` " + s + " ``"
}

// anchor is the id GitHub gives a heading: lower case, spaces as hyphens,
// other punctuation dropped. Kinds and versions are DNS labels and Go
// identifiers, so only the case and the space change.
func anchor(heading string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(heading) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || r == '_' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9':
			b.WriteRune(r)
		}
	}
	return b.String()
}
