package jsonscan

import (
	"errors"
	"unicode/utf8"
)

// Tokens reads one JSON value a token at a time, validating as it goes,
// for the decoders crdforge generates: they pull a container's delimiters
// and member names and take each leaf value's bytes whole. It accepts
// exactly the JSON Valid accepts; where the input is not JSON, or a call
// does not fit what comes next, the call fails and every later one does
// too.
//
// It is written here, on the envelope's own walker, rather than taken from
// a JSON library: the standard library has no pull tokenizer before
// encoding/json/jsontext (Go 1.27, or an experiment before), and
// github.com/go-json-experiment/json, which has one, requires Go 1.25 or
// later and is two incompatible APIs depending on the Go release that
// builds it. A generated webhook must build on every Go a project uses.
type Tokens struct {
	w walker
	// open is the containers open around the next token: '{' or '['.
	open []byte
	// after says what was just read, and so what may come next.
	after state
	err   error
	// plain says whether the last string Name or Value read is its own
	// value (see Plain).
	plain bool
	// tape, when not nil, is what Tokens reads rather than walking the
	// bytes (ResetTape); pos is the next token's index in it.
	tape             []token
	pos              int
	cutStart, cutEnd int
	// peeked is what Peek found, 0 when it has not looked since the walk
	// last moved: a generated decoder asks for the next token's kind
	// several times before it reads the token (More, then Null, then the
	// leaf's own check).
	peeked byte
}

// state is what Tokens read last.
type state uint8

const (
	// atStart: nothing yet, or a container's opening delimiter.
	atStart state = iota
	// afterValue: a whole value; a ',' or the container's end follows.
	afterValue
	// afterComma: a ',' between members or elements.
	afterComma
	// afterName: a member's name and its ':'; the member's value follows.
	afterName
)

// Kinds, as Peek reports them: the first byte of the next token, '0' for a
// number, and 0 for the end of the input or an error.
const (
	KindNull   = 'n'
	KindTrue   = 't'
	KindFalse  = 'f'
	KindString = '"'
	KindNumber = '0'
)

var errUnexpected = errors.New("jsonscan: unexpected token")

// Reset makes t read data from its start.
func (t *Tokens) Reset(data []byte) {
	t.w = walker{b: data}
	t.open, t.after, t.err, t.peeked = t.open[:0], atStart, nil, 0
	t.tape, t.pos = nil, 0
}

// Err returns the error that stopped t, if one did.
func (t *Tokens) Err() error { return t.err }

// fail stops t with err, the first error only.
func (t *Tokens) fail(err error) error {
	if t.err == nil {
		t.err = err
	}
	t.peeked = 0
	return t.err
}

// Peek returns the kind of the next token without reading it, moving past
// the ',' before it when there is one.
func (t *Tokens) Peek() byte {
	if t.tape != nil {
		return t.tapePeek()
	}
	if t.peeked == 0 && t.err == nil {
		t.peeked = t.peek()
	}
	return t.peeked
}

// peek is Peek without the memory of its last look.
func (t *Tokens) peek() byte {
	c := t.w.peek()
	if t.after == afterValue && len(t.open) == 0 {
		if t.w.i < len(t.w.b) {
			_ = t.fail(t.w.fail("more after the value"))
		}
		return 0
	}
	if t.after == afterValue {
		switch {
		case c == ',':
			t.w.i++
			t.after = afterComma
			c = t.w.peek()
		case c != closer(t.open[len(t.open)-1]):
			_ = t.fail(t.w.fail("want ',' or the end of the container"))
			return 0
		}
	}
	switch c {
	case '}', ']':
		if t.after == afterComma || t.after == afterName || len(t.open) == 0 || c != closer(t.open[len(t.open)-1]) {
			_ = t.fail(t.w.fail("unexpected end of a container"))
			return 0
		}
		return c
	case '-', '1', '2', '3', '4', '5', '6', '7', '8', '9', '0':
		return KindNumber
	case 'n', 't', 'f', '"', '{', '[':
		return c
	case 0: // the end of the input, or a NUL byte, which is not JSON
		if t.w.i == len(t.w.b) {
			return 0
		}
	}
	_ = t.fail(t.w.fail("invalid character"))
	return 0
}

func closer(open byte) byte {
	if open == '{' {
		return '}'
	}
	return ']'
}

// wantName reports whether the next token must be a member's name.
func (t *Tokens) wantName() bool {
	return len(t.open) > 0 && t.open[len(t.open)-1] == '{' && (t.after == atStart || t.after == afterComma)
}

// Begin reads the opening delimiter of an object or array, kind '{' or '['.
func (t *Tokens) Begin(kind byte) error {
	if t.tape != nil {
		return t.tapeBegin(kind)
	}
	if t.Peek() != kind || t.wantName() || kind != '{' && kind != '[' {
		return t.fail(errUnexpected)
	}
	if len(t.open) >= maxDepth {
		return t.fail(t.w.fail("nested too deeply"))
	}
	t.w.i++
	t.open = append(t.open, kind)
	t.after, t.peeked = atStart, 0
	return nil
}

// End reads the closing delimiter of the innermost open object or array.
func (t *Tokens) End() error {
	if t.tape != nil {
		return t.tapeEnd()
	}
	if c := t.Peek(); c != '}' && c != ']' {
		return t.fail(errUnexpected)
	}
	t.w.i++
	t.open = t.open[:len(t.open)-1]
	t.after, t.peeked = afterValue, 0
	return nil
}

// Name reads a member's name and the ':' after it, and returns the name
// as it is in the input, quotes and escapes included.
func (t *Tokens) Name() ([]byte, error) {
	if t.tape != nil {
		return t.tapeName()
	}
	if t.Peek() != '"' || !t.wantName() {
		return nil, t.fail(errUnexpected)
	}
	start := t.w.i
	t.peeked = 0
	escaped, err := t.w.str()
	if err != nil {
		return nil, t.fail(err)
	}
	name := t.w.b[start:t.w.i]
	t.plain = isPlain(name, escaped, t.w.nonASCII)
	if t.w.peek() != ':' {
		return nil, t.fail(t.w.fail("want ':' after an object key"))
	}
	t.w.i++
	t.after = afterName
	return name, nil
}

// Value reads the next value whole, objects and arrays included, and
// returns its bytes.
func (t *Tokens) Value() ([]byte, error) {
	if t.tape != nil {
		return t.tapeValue()
	}
	k := t.Peek()
	if k == 0 || k == '}' || k == ']' || t.wantName() {
		return nil, t.fail(errUnexpected)
	}
	start := t.w.i
	t.peeked = 0
	if k == KindString {
		escaped, err := t.w.str()
		if err != nil {
			return nil, t.fail(err)
		}
		t.plain = isPlain(t.w.b[start:t.w.i], escaped, t.w.nonASCII)
	} else if err := t.w.value(); err != nil {
		return nil, t.fail(err)
	}
	t.after = afterValue
	return t.w.b[start:t.w.i], nil
}

// Plain reports whether the string Name or Value returned last is its own
// value, quotes aside: it holds no escapes and is valid UTF-8. The walk
// that read it found out, so a decoder need not look at its bytes again.
func (t *Tokens) Plain() bool { return t.plain }

// isPlain is Plain for the string literal raw.
func isPlain(raw []byte, escaped, nonASCII bool) bool {
	return !escaped && (!nonASCII || utf8.Valid(raw[1:len(raw)-1]))
}

// AtEnd reports whether the whole input was read: one value, then nothing
// but space.
func (t *Tokens) AtEnd() bool {
	if t.tape != nil {
		return t.tapeAtEnd()
	}
	if t.err != nil || len(t.open) > 0 || t.after != afterValue {
		return false
	}
	t.w.space()
	return t.w.i == len(t.w.b)
}
