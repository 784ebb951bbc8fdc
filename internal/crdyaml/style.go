package crdyaml

import (
	"strings"
	"unicode/utf8"

	yaml "go.yaml.in/yaml/v2"
)

// style is how a string scalar is written.
type style int

const (
	unsupported  style = iota // go-yaml prints it; this package does not
	plain                     // as is
	singleQuoted              // 'like this', quotes doubled
	doubleQuoted              // "like this"
	literal                   // a "|-" block, for text with line breaks
)

// styleOf is the style go-yaml v2 picks for s as a value in a block
// mapping or sequence, or as a mapping key.
//
// go-yaml first asks for a literal block when s has a line break, plain
// text when s reads back as a string, and double quotes otherwise (a
// number, a boolean, null). Its emitter then steps down from what the text
// does not allow: plain to single quotes to double quotes, and a block to
// double quotes.
func styleOf(s string, key bool) style {
	a, ok := analyze(s)
	if !ok || key && a.lineBreaks {
		return unsupported
	}
	var want style
	switch {
	case a.lineBreaks:
		want = literal
	case s == "":
		return doubleQuoted // null otherwise
	case !plainReadsAsString(s):
		// Whether a plain scalar reads as a string here depends on YAML
		// 1.1's number, timestamp and sexagesimal forms: go-yaml decides.
		return styleByGoYAML(s)
	case yaml11Words[s]:
		want = doubleQuoted
	default:
		want = plain
	}
	if want == plain && !a.plainOK() {
		want = singleQuoted
	}
	if want == singleQuoted && !a.singleOK() {
		want = doubleQuoted
	}
	if want == literal && !a.blockOK() {
		want = doubleQuoted
	}
	return want
}

// plainReadsAsString reports whether s, written plain, reads back as a
// string whatever follows its first character: YAML 1.1 resolves plain text
// starting with a sign, a digit or a dot as a number or timestamp when it
// can, and nothing else but the words of yaml11Words as anything else.
func plainReadsAsString(s string) bool {
	return !strings.ContainsRune("+-.0123456789", rune(s[0]))
}

// yaml11Words are YAML 1.1's booleans and nulls, which a plain scalar
// would read back as.
var yaml11Words = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`y Y yes Yes YES n N no No NO true True TRUE false False FALSE
		on On ON off Off OFF ~ null Null NULL`) {
		yaml11Words[w] = true
	}
}

// styleByGoYAML is the style go-yaml writes s in, read from its output.
// It costs a marshal, for the rare strings that start like a number.
func styleByGoYAML(s string) style {
	out, err := yaml.Marshal(s)
	if err != nil || len(out) == 0 {
		return unsupported
	}
	switch out[0] {
	case '"':
		return doubleQuoted
	case '\'':
		return singleQuoted
	case '|', '>', '!':
		return unsupported
	}
	return plain
}

// analysis is what a string's text allows, in YAML's terms.
type analysis struct {
	indicator  bool // a character that means something at its place in block context
	lineBreaks bool
	leading    bool // a space or line break first
	trailing   bool // a space or line break last
	spaceLast  bool // a space last
	breakSpace bool // a space after a line break
	spaceBreak bool // a line break after a space
}

func (a analysis) plainOK() bool {
	return !a.indicator && !a.lineBreaks && !a.leading && !a.trailing && !a.breakSpace && !a.spaceBreak
}

func (a analysis) singleOK() bool { return !a.breakSpace && !a.spaceBreak }

func (a analysis) blockOK() bool { return !a.spaceLast && !a.spaceBreak }

// analyze reads s as the emitter does before choosing a style. It reports
// false for text go-yaml would escape or treat specially: invalid UTF-8,
// characters YAML does not print (tabs, controls, characters beyond the
// Basic Multilingual Plane) and line breaks other than "\n".
func analyze(s string) (analysis, bool) {
	var a analysis
	if strings.HasPrefix(s, "---") || strings.HasPrefix(s, "...") {
		a.indicator = true
	}
	afterBlank := true // the start counts as after whitespace
	prevSpace, prevBreak := false, false
	for i, r := range s {
		if r == utf8.RuneError || !printable(r) {
			return a, false
		}
		w := utf8.RuneLen(r)
		last := i+w == len(s)
		beforeBlank := last || s[i+w] == ' ' || s[i+w] == '\t'
		if i == 0 {
			switch r {
			case '#', ',', '[', ']', '{', '}', '&', '*', '!', '|', '>', '\'', '"', '%', '@', '`':
				a.indicator = true
			case '?', ':', '-':
				a.indicator = a.indicator || beforeBlank
			}
		} else {
			switch r {
			case ':':
				a.indicator = a.indicator || beforeBlank
			case '#':
				a.indicator = a.indicator || afterBlank
			}
		}
		switch r {
		case ' ':
			a.leading = a.leading || i == 0
			a.trailing = a.trailing || last
			a.spaceLast = a.spaceLast || last
			a.breakSpace = a.breakSpace || prevBreak
			prevSpace, prevBreak = true, false
		case '\n':
			a.lineBreaks = true
			a.leading = a.leading || i == 0
			a.trailing = a.trailing || last
			a.spaceBreak = a.spaceBreak || prevSpace
			prevSpace, prevBreak = false, true
		default:
			prevSpace, prevBreak = false, false
		}
		afterBlank = r == ' ' || r == '\n'
	}
	return a, true
}

// printable reports whether YAML prints r as it is: "\n", printable ASCII
// and the Basic Multilingual Plane but for surrogates, the byte order mark
// and the two non-characters at its end. The Unicode line and paragraph
// separators are line breaks to YAML; go-yaml prints those.
func printable(r rune) bool {
	switch {
	case r == '\n', r >= 0x20 && r <= 0x7e:
		return true
	case r == 0x2028, r == 0x2029, r == 0xfeff:
		return false
	}
	return r >= 0xa0 && r <= 0xd7ff || r >= 0xe000 && r <= 0xfffd
}
