// Package crdyaml prints a CRD's generic JSON value as YAML, byte for byte
// as go-yaml v2 (which controller-gen's output goes through) prints it.
//
// go-yaml v2 marshals through an event queue that holds a whole document:
// on a CRD of a few hundred kinds that was the largest allocation of a
// CRD-only run (BENCHMARKS.md, "CRDs alone, in process"). This printer
// writes the same bytes straight into one buffer, for the values a CRD's
// JSON form holds: objects, arrays, strings, json.Numbers, booleans and
// null. Where go-yaml's choice of layout needs more than this package
// knows for sure (strings it would escape, long keys, block scalars with
// indentation or chomping hints), Append hands the document to go-yaml, so
// the output is go-yaml's either way.
// The tests hold the two to the same bytes on every golden CRD and on
// generated values.
package crdyaml

import (
	"encoding/json"
	"math"
	"slices"
	"strconv"
	"unicode/utf8"

	yaml "go.yaml.in/yaml/v2"
)

// Layout constants of go-yaml v2's emitter: nested blocks are indented by
// two columns, and plain and quoted scalars are folded at the first space
// past the eightieth column. A mapping key longer than 128 bytes is no
// longer a "simple" key and is printed in another form.
const (
	indentStep   = 2
	foldColumn   = 80
	simpleKeyMax = 128
)

// Append appends v's YAML document, as go-yaml v2 marshals it, to dst. v
// holds what encoding/json decodes with UseNumber; Append may change its
// numbers in place.
func Append(dst []byte, v map[string]any) ([]byte, error) {
	if out, ok := appendDirect(dst, v); ok {
		return out, nil
	}
	body, err := yaml.Marshal(yamlValue(v))
	if err != nil {
		return nil, err
	}
	return append(dst, body...), nil
}

// appendDirect appends v's document to dst itself, or reports false when v
// holds anything this package does not print exactly as go-yaml would; dst
// up to its length is unchanged either way.
func appendDirect(dst []byte, v map[string]any) ([]byte, bool) {
	p := printer{buf: dst}
	if len(v) == 0 {
		p.buf = append(p.buf, "{}\n"...)
		return p.buf, true
	}
	if !p.mapping(v, 0, lineStart) {
		return nil, false
	}
	if !p.ended {
		p.buf = append(p.buf, '\n')
	}
	return p.buf, true
}

// printer writes into buf and tracks the column of the current line in
// characters, as the emitter counts it for folding.
type printer struct {
	buf []byte
	col int
	// ended is set when a block scalar's kept line break ended the line.
	ended bool
	// keys is reused across mappings for sorting.
	keys [][]string
}

func (p *printer) newline(indent int) {
	if !p.ended {
		p.buf = append(p.buf, '\n')
	}
	p.ended = false
	for range indent {
		p.buf = append(p.buf, ' ')
	}
	p.col = indent
}

func (p *printer) raw(s string) {
	p.buf = append(p.buf, s...)
	p.col += utf8.RuneCountInString(s)
}

// start says where a block's first entry goes.
type start int

const (
	nextLine  start = iota // on a line of its own
	inline                 // after a sequence item's dash
	lineStart              // where the document starts
)

// begin moves to where a block's i-th entry at column indent starts.
func (p *printer) begin(i, indent int, first start) {
	switch {
	case i > 0 || first == nextLine:
		p.newline(indent)
	case first == inline:
		p.raw(" ")
	}
}

// mapping prints a non-empty mapping whose keys sit at column indent.
func (p *printer) mapping(m map[string]any, indent int, first start) bool {
	keys := p.sortedKeys(m)
	defer p.release(keys)
	for i, k := range keys {
		p.begin(i, indent, first)
		if !p.key(k) {
			return false
		}
		p.raw(":")
		if !p.value(m[k], indent) {
			return false
		}
	}
	return true
}

// value prints what follows "key:" in a mapping at column indent.
func (p *printer) value(v any, indent int) bool {
	switch v := v.(type) {
	case map[string]any:
		if len(v) == 0 {
			p.raw(" {}")
			return true
		}
		return p.mapping(v, indent+indentStep, nextLine)
	case []any:
		if len(v) == 0 {
			p.raw(" []")
			return true
		}
		// A sequence in a mapping is not indented further.
		return p.sequence(v, indent, nextLine)
	}
	return p.scalar(v, indent+indentStep)
}

// sequence prints a non-empty sequence whose dashes sit at column indent.
func (p *printer) sequence(s []any, indent int, first start) bool {
	for i, item := range s {
		p.begin(i, indent, first)
		p.raw("-")
		var ok bool
		switch item := item.(type) {
		case map[string]any:
			if len(item) == 0 {
				p.raw(" {}")
				ok = true
			} else {
				ok = p.mapping(item, indent+indentStep, inline)
			}
		case []any:
			if len(item) == 0 {
				p.raw(" []")
				ok = true
			} else {
				ok = p.sequence(item, indent+indentStep, inline)
			}
		default:
			ok = p.scalar(item, indent+indentStep)
		}
		if !ok {
			return false
		}
	}
	return true
}

// scalar prints a scalar after a key's colon or an item's dash; indent is
// where its folded lines continue.
func (p *printer) scalar(v any, indent int) bool {
	switch v := v.(type) {
	case nil:
		p.raw(" null")
	case bool:
		if v {
			p.raw(" true")
		} else {
			p.raw(" false")
		}
	case json.Number:
		s, ok := number(v)
		if !ok {
			return false
		}
		p.raw(" ")
		p.raw(s)
	case string:
		return p.str(v, indent)
	default:
		return false
	}
	return true
}

// number prints a JSON number as go-yaml prints the int64 or float64 a YAML
// parser makes of it; it reports false for a number neither holds (go-yaml
// would print its text as a string).
func number(n json.Number) (string, bool) {
	if i, err := n.Int64(); err == nil {
		return strconv.FormatInt(i, 10), true
	}
	f, err := n.Float64()
	if err != nil {
		return "", false
	}
	switch {
	case math.IsInf(f, 1):
		return ".inf", true
	case math.IsInf(f, -1):
		return "-.inf", true
	case math.IsNaN(f):
		return ".nan", true
	}
	return strconv.FormatFloat(f, 'g', -1, 64), true
}

// str prints a string value in the style go-yaml picks for it.
func (p *printer) str(s string, indent int) bool {
	switch styleOf(s, false) {
	case plain:
		p.raw(" ")
		p.folded(s, indent, false)
	case singleQuoted:
		p.raw(" '")
		p.folded(s, indent, true)
		p.raw("'")
	case doubleQuoted:
		return p.doubleQuoted(s, true)
	case literal:
		return p.literal(s, indent)
	default:
		return false
	}
	return true
}

// key prints a mapping key: never folded, and in a form that reads back as
// the same string.
func (p *printer) key(k string) bool {
	if len(k) > simpleKeyMax {
		return false
	}
	switch styleOf(k, true) {
	case plain:
		p.raw(k)
	case singleQuoted:
		p.raw("'")
		p.folded(k, 0, true)
		p.raw("'")
	case doubleQuoted:
		return p.doubleQuoted(k, false)
	default:
		return false
	}
	return true
}

// folded writes s as a plain or single-quoted scalar's text, replacing
// with a line break at indent the first of a run of single spaces met past
// the fold column. A single-quoted scalar doubles its quotes and never
// folds at its first or last character. Keys pass indent 0 and cannot
// reach the fold: they are at most 128 bytes, and sorted keys of a CRD
// sit far left; the tests hold both to go-yaml regardless.
func (p *printer) folded(s string, indent int, quoted bool) {
	prevSpace := false
	for i, r := range s {
		if r == ' ' {
			next := i+1 < len(s) && s[i+1] == ' '
			edge := quoted && (i == 0 || i == len(s)-1)
			if indent > 0 && !prevSpace && p.col > foldColumn && !next && !edge {
				p.newline(indent)
			} else {
				p.buf = append(p.buf, ' ')
				p.col++
			}
			prevSpace = true
			continue
		}
		prevSpace = false
		if quoted && r == '\'' {
			p.buf = append(p.buf, '\'')
			p.col++
		}
		p.buf = utf8.AppendRune(p.buf, r)
		p.col++
	}
}

// doubleQuoted writes s in double quotes when that needs neither escapes
// nor folding: printable ASCII without quotes or backslashes, and no space
// past the fold column. A value is preceded by a space.
func (p *printer) doubleQuoted(s string, value bool) bool {
	col := p.col + 1
	if value {
		col++
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 || c > 0x7e || c == '"' || c == '\\' {
			return false
		}
		if c == ' ' && col > foldColumn {
			return false
		}
		col++
	}
	if value {
		p.raw(" ")
	}
	p.raw(`"`)
	p.raw(s)
	p.raw(`"`)
	return true
}

// literal writes a multi-line string as a block scalar, its lines at
// indent and empty lines left empty: "|-" strips the missing final line
// break, "|" keeps the one final line break, after which the line has
// ended. A string that starts with a space or a line break, or ends with
// two line breaks, needs indentation or chomping hints: go-yaml prints
// those.
func (p *printer) literal(s string, indent int) bool {
	n := len(s)
	if s[0] == ' ' || s[0] == '\n' || n > 1 && s[n-1] == '\n' && s[n-2] == '\n' {
		return false
	}
	keep := s[n-1] == '\n'
	if keep {
		s = s[:n-1]
		p.raw(" |")
	} else {
		p.raw(" |-")
	}
	start := 0
	for i := 0; i <= len(s); i++ {
		if i < len(s) && s[i] != '\n' {
			continue
		}
		line := s[start:i]
		if line == "" {
			p.buf = append(p.buf, '\n')
			p.col = 0
		} else {
			p.newline(indent)
			p.raw(line)
		}
		start = i + 1
	}
	if keep {
		p.buf = append(p.buf, '\n')
		p.col = 0
		p.ended = true
	}
	return true
}

// sortedKeys returns m's keys in go-yaml's order, in a slice to give back
// with release.
func (p *printer) sortedKeys(m map[string]any) []string {
	var keys []string
	if n := len(p.keys); n > 0 {
		keys, p.keys = p.keys[n-1][:0], p.keys[:n-1]
	}
	for k := range m {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, compareKeys)
	return keys
}

func (p *printer) release(keys []string) { p.keys = append(p.keys, keys) }

// yamlValue turns JSON numbers into the ints and floats a YAML parser would
// have made of them, so that go-yaml prints them as controller-gen does.
func yamlValue(v any) any {
	switch v := v.(type) {
	case map[string]any:
		for k, e := range v {
			v[k] = yamlValue(e)
		}
	case []any:
		for i, e := range v {
			v[i] = yamlValue(e)
		}
	case json.Number:
		if i, err := v.Int64(); err == nil {
			return i
		}
		if f, err := v.Float64(); err == nil {
			return f
		}
		return v.String()
	}
	return v
}
