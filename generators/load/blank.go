package load

import "bytes"

// blankBodies returns src, a Go source file, with what is between the braces
// of each function declaration's body replaced by spaces, newlines kept.
// The file parses to the tree dropBodies leaves, at the same positions, but
// the parser no longer builds a tree for every statement only for
// dropBodies to throw it away. Bodies are most of the bytes of the
// dependencies a run parses (k8s.io/api's generated.pb.go holds 1.7 MB of
// them), and go/parser has no mode that skips them.
//
// It scans bytes rather than go/scanner's tokens, which cost a large part
// of what parsing the bodies does, and knows only what finding the bodies
// needs: comments, literals, words and brackets. Bodies it keeps: a ConvertTo
// or ConvertFrom method's (dropBodies keeps those too), and one holding a
// line directive, which would move the positions after it. The comments
// inside a body go with it; nothing reads them (see dropBodies).
//
// A file it got wrong would parse to another tree: parse uses it only on
// files nobody edits, from the module cache and GOROOT, and the tests hold
// it to dropBodies on Go's and Kubernetes' sources and under the fuzzer.
func blankBodies(src []byte) []byte {
	s := &bodyScan{src: src}
	var out []byte
	for {
		open, end, ok := s.nextBody()
		if !ok {
			break
		}
		if out == nil {
			out = bytes.Clone(src)
		}
		for i := open + 1; i < end; i++ {
			if out[i] != '\n' {
				out[i] = ' '
			}
		}
	}
	if out == nil {
		return src
	}
	return out
}

// bodyScan reads a file token by token, a token being a word (identifier,
// keyword or number), a literal, or one byte of punctuation.
type bodyScan struct {
	src []byte
	i   int // the offset after the current token
	// cur and prev are the current and the previous token: where each
	// starts and ends; kind 0 is the start of the file.
	cur, prev lexeme
	// newline is set when a newline (or a comment holding one) came between
	// prev and cur.
	newline bool
	// again has the next call of next return cur again.
	again bool
	// lineDirective is set when a //line or /*line comment was passed.
	lineDirective bool
}

// lexeme is one token of the file, by where it is (go/token's name for a
// token's kind, token.Token, is taken by this package's imports).
type lexeme struct {
	kind       byte // the first byte, 'a' for a word, '"' for a literal
	start, end int
}

// word is the token's text when it is a word, else "".
func (s *bodyScan) word(t lexeme) string {
	if t.kind != 'a' {
		return ""
	}
	return string(s.src[t.start:t.end])
}

// nextBody finds the next function declaration's body to blank and returns
// the offsets of its braces.
func (s *bodyScan) nextBody() (open, end int, ok bool) {
	for s.next() {
		switch s.cur.kind {
		case 'a':
			if s.word(s.cur) == "func" && s.declStart() {
				if open, end, ok := s.signature(); ok {
					return open, end, true
				}
			}
		case '(', '[', '{':
			// A group at the top level (a var block, a composite literal):
			// a func inside is a literal or a type.
			if _, ok := s.skipGroup(); !ok {
				return 0, 0, false
			}
		}
	}
	return 0, 0, false
}

// declStart reports whether the func keyword just read starts a declaration
// rather than a type or a literal: it follows the start of the file, a
// semicolon, or a newline that ends the declaration before it.
func (s *bodyScan) declStart() bool {
	return s.prev.kind == 0 || s.prev.kind == ';' || s.newline && s.endsLine(s.prev)
}

// signature reads a function declaration's signature, after its func
// keyword, and returns its body's braces when the body is to be blanked.
// A declaration without a body (an assembly function's) ends at a newline
// or a semicolon; the token after it is read again.
func (s *bodyScan) signature() (open, end int, ok bool) {
	if !s.next() {
		return 0, 0, false
	}
	method := s.cur.kind == '('
	if method {
		if _, ok := s.skipGroup(); !ok || !s.next() {
			return 0, 0, false
		}
	}
	name := s.word(s.cur)
	keep := method && (name == "ConvertTo" || name == "ConvertFrom")
	for s.next() {
		switch {
		case s.newline && s.endsLine(s.prev) || s.cur.kind == ';':
			s.again = s.cur.kind != ';'
			return 0, 0, false
		case s.cur.kind == '(' || s.cur.kind == '[':
			if _, ok := s.skipGroup(); !ok {
				return 0, 0, false
			}
		case s.cur.kind == '{':
			typ := s.word(s.prev) == "struct" || s.word(s.prev) == "interface"
			open := s.cur.start
			s.lineDirective = false
			end, ok := s.skipGroup()
			if !ok {
				return 0, 0, false
			}
			if !typ {
				return open, end, !keep && !s.lineDirective
			}
		}
	}
	return 0, 0, false
}

// endsLine reports whether a newline after t ends a declaration, by Go's
// rule for inserting semicolons.
func (s *bodyScan) endsLine(t lexeme) bool {
	switch t.kind {
	case ')', ']', '}', '"':
		return true
	case 'a':
		switch s.word(t) {
		case "break", "continue", "fallthrough", "return":
			return true
		case "case", "chan", "const", "default", "defer", "else", "for", "func", "go", "goto", "if",
			"import", "interface", "map", "package", "range", "select", "struct", "switch", "type", "var":
			return false
		}
		return true
	}
	return false
}

// skipGroup reads up to the bracket that closes the current one, and
// returns its offset.
func (s *bodyScan) skipGroup() (int, bool) {
	depth := 0
	for {
		switch s.cur.kind {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
			if depth == 0 {
				return s.cur.start, true
			}
		}
		if !s.next() {
			return 0, false
		}
	}
}

// next reads the next token into cur; false at the end of the file or at a
// comment or literal left open.
func (s *bodyScan) next() bool {
	if s.again {
		s.again = false
		return true
	}
	s.prev, s.newline = s.cur, false
	src := s.src
	for s.i < len(src) {
		start := s.i
		switch c := src[start]; {
		case c == '\n':
			s.newline = true
			s.i++
		case c == ' ' || c == '\t' || c == '\r':
			s.i++
		case c == '/' && start+1 < len(src) && (src[start+1] == '/' || src[start+1] == '*'):
			if !s.comment() {
				return false
			}
		case c == '"' || c == '\'' || c == '`':
			end, ok := literalEnd(src, start)
			if !ok {
				return false
			}
			s.i, s.cur = end, lexeme{kind: '"', start: start, end: end}
			return true
		case isWordByte(c):
			end := start + 1
			for end < len(src) && isWordByte(src[end]) {
				end++
			}
			s.i, s.cur = end, lexeme{kind: 'a', start: start, end: end}
			return true
		default:
			s.i, s.cur = start+1, lexeme{kind: c, start: start, end: start + 1}
			return true
		}
	}
	return false
}

// comment steps over the comment at s.i, noting a newline or a line
// directive in it.
func (s *bodyScan) comment() bool {
	src, start := s.src, s.i
	text := src[start+2:]
	if bytes.HasPrefix(text, []byte("line ")) {
		s.lineDirective = true
	}
	if src[start+1] == '/' {
		n := bytes.IndexByte(text, '\n')
		if n < 0 {
			s.i = len(src)
		} else {
			s.i = start + 2 + n // the newline is read as one
		}
		return true
	}
	n := bytes.Index(text, []byte("*/"))
	if n < 0 {
		return false
	}
	if bytes.IndexByte(text[:n], '\n') >= 0 {
		s.newline = true
	}
	s.i = start + 2 + n + 2
	return true
}

// literalEnd returns the offset after the string, raw string or rune
// literal at start; false when it is not closed on its line (or, raw, at
// all).
func literalEnd(src []byte, start int) (int, bool) {
	quote := src[start]
	for i := start + 1; i < len(src); i++ {
		switch c := src[i]; {
		case c == quote:
			return i + 1, true
		case quote == '`':
		case c == '\\':
			i++
		case c == '\n':
			return 0, false
		}
	}
	return 0, false
}

// isWordByte reports whether c can be part of an identifier or a number;
// any byte of a multi-byte UTF-8 character counts as a letter.
func isWordByte(c byte) bool {
	return c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c >= 0x80
}
