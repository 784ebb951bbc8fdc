// Package jsonscan reads a ConversionReview's envelope in one validating
// pass over the request body, without decoding the objects: it checks that
// the whole body is JSON, and returns each object as a slice of the body
// together with what the webhook needs before knowing the object's type (its
// apiVersion and kind) and the place of its metadata, which converted
// objects carry through as the bytes that came in.
//
// The pass replaces encoding/json.Valid over the body, which scanned it once
// more before the envelope was read: it accepts exactly the JSON that
// json.Valid accepts (invalid UTF-8 in strings included, as the decoders do;
// a fuzz test checks the two agree).
package jsonscan

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
)

// maxDepth bounds nesting, as encoding/json's scanner does.
const maxDepth = 10000

// SyntaxError is JSON that is not valid, at a byte offset of the body.
type SyntaxError struct {
	Offset int
	msg    string
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("invalid JSON at offset %d: %s", e.Offset, e.msg)
}

// walker validates and walks JSON.
type walker struct {
	b     []byte
	i     int
	depth int
	// apiVersion and kind are the last object's, which the next one most
	// likely repeats (repeatedString).
	apiVersion, kind string
	// spans collects the objects' metaMembers.
	spans []int32
	// nonASCII says whether the last string str walked holds a byte
	// outside ASCII.
	nonASCII bool
	// tape records an object's tokens, while tape.on.
	tape taping
}

func (w *walker) fail(msg string) error {
	return &SyntaxError{Offset: w.i, msg: msg}
}

func (w *walker) space() {
	b, i := w.b, w.i
	for i < len(b) && b[i] <= ' ' && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	w.i = i
}

// peek returns the next non-space byte, or 0 at the end.
func (w *walker) peek() byte {
	w.space()
	if w.i >= len(w.b) {
		return 0
	}
	return w.b[w.i]
}

// str validates the string at w.i and moves past it. It reports whether the
// string holds escapes, so that a caller unquotes only those.
//
// Its loops work on locals, and skip the bytes that need no look (most of
// them) with one table lookup each: the walk is the one pass over the whole
// body.
func (w *walker) str() (escaped bool, err error) {
	b, i, start := w.b, w.i, w.i
	if i >= len(b) || b[i] != '"' {
		return false, w.fail("want a string")
	}
	nonASCII := false
	for i++; ; {
		for i+8 <= len(b) && plainWord(binary.LittleEndian.Uint64(b[i:])) {
			i += 8
		}
		for i < len(b) && plainInString[b[i]] {
			i++
		}
		if i >= len(b) {
			w.i = i
			return false, w.fail("unterminated string")
		}
		switch c := b[i]; {
		case c == '"':
			w.i, w.nonASCII = i+1, nonASCII
			if w.tape.on {
				w.stringLeaf(start, escaped)
			}
			return escaped, nil
		case c < 0x20:
			w.i = i
			return false, w.fail("control character in a string")
		case c >= 0x80:
			nonASCII = true
			i++
			continue
		}
		// A backslash.
		escaped = true
		if i++; i >= len(b) {
			w.i = i
			return false, w.fail("unterminated string")
		}
		switch b[i] {
		case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			i++
		case 'u':
			if i+4 >= len(b) {
				w.i = i
				return false, w.fail("unterminated string")
			}
			for _, h := range b[i+1 : i+5] {
				if !isHex(h) {
					w.i = i
					return false, w.fail("invalid \\u escape")
				}
			}
			i += 5
		default:
			w.i = i
			return false, w.fail("invalid escape")
		}
	}
}

// plainInString is the ASCII bytes a string holds as they are: all but the
// quote, the backslash and control characters. The others stop str's fast
// loop, bytes beyond ASCII too, so that it knows whether a string is ASCII
// (see Tokens.Plain) without a second look at it.
var plainInString = func() (t [256]bool) {
	for c := 0x20; c < 0x80; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// plainWord reports whether the eight bytes of x are all plainInString, a
// word at a time (names, uids and times are mostly longer than eight
// bytes): none has its high bit set, is below 0x20, a quote or a
// backslash. Of bytes below 0x80, subtracting 0x20 from each sets a high
// bit exactly when one is below 0x20 (the first such borrows into its own),
// and subtracting 1 from each of x XOR a byte repeated does so exactly
// when one is that byte.
func plainWord(x uint64) bool {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	below := x - 0x20*ones
	quote := (x ^ '"'*ones) - ones
	backslash := (x ^ '\\'*ones) - ones
	return (x|below|quote|backslash)&highs == 0
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// number validates the number at w.i: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
func (w *walker) number() error {
	b, start := w.b, w.i
	if w.i < len(b) && b[w.i] == '-' {
		w.i++
	}
	switch {
	case w.i < len(b) && b[w.i] == '0':
		w.i++
	case w.i < len(b) && isDigit(b[w.i]):
		for w.i < len(b) && isDigit(b[w.i]) {
			w.i++
		}
	default:
		return w.fail("invalid number")
	}
	if w.i < len(b) && b[w.i] == '.' {
		w.i++
		if w.i >= len(b) || !isDigit(b[w.i]) {
			return w.fail("invalid number")
		}
		for w.i < len(b) && isDigit(b[w.i]) {
			w.i++
		}
	}
	if w.i < len(b) && (b[w.i] == 'e' || b[w.i] == 'E') {
		w.i++
		if w.i < len(b) && (b[w.i] == '+' || b[w.i] == '-') {
			w.i++
		}
		if w.i >= len(b) || !isDigit(b[w.i]) {
			return w.fail("invalid number")
		}
		for w.i < len(b) && isDigit(b[w.i]) {
			w.i++
		}
	}
	if w.tape.on {
		w.leaf(KindNumber, start)
	}
	return nil
}

func (w *walker) literal(lit string) error {
	if len(w.b)-w.i < len(lit) || string(w.b[w.i:w.i+len(lit)]) != lit {
		return w.fail("invalid literal")
	}
	w.i += len(lit)
	if w.tape.on {
		w.leaf(lit[0], w.i-len(lit))
	}
	return nil
}

// value validates the value starting at the next non-space byte and moves
// past it. Objects and arrays whose members no one looks at (most of a
// body: specs, statuses, managedFields) are walked here, without the
// callbacks of object and array.
func (w *walker) value() error {
	switch w.peek() {
	case '"':
		_, err := w.str()
		return err
	case '{':
		return w.skipObject()
	case '[':
		return w.skipArray()
	case 't':
		return w.literal("true")
	case 'f':
		return w.literal("false")
	case 'n':
		return w.literal("null")
	case 0:
		return w.fail("unexpected end of JSON")
	default:
		return w.number()
	}
}

// skipObject is object with a member callback that walks each value.
func (w *walker) skipObject() error {
	if w.depth++; w.depth > maxDepth {
		return w.fail("nested too deeply")
	}
	opened := w.open()
	w.i++ // the '{' value saw
	if w.peek() == '}' {
		w.i++
		w.depth--
		w.close(opened)
		return nil
	}
	for {
		w.space()
		if _, err := w.str(); err != nil {
			return err
		}
		w.asName()
		if w.peek() != ':' {
			return w.fail("want ':' after an object key")
		}
		w.i++
		if err := w.value(); err != nil {
			return err
		}
		switch w.peek() {
		case ',':
			w.i++
		case '}':
			w.i++
			w.depth--
			w.close(opened)
			return nil
		default:
			return w.fail("want ',' or '}' after an object member")
		}
	}
}

// skipArray is array with an element callback that walks each element.
func (w *walker) skipArray() error {
	if w.depth++; w.depth > maxDepth {
		return w.fail("nested too deeply")
	}
	opened := w.open()
	w.i++ // the '[' value saw
	if w.peek() == ']' {
		w.i++
		w.depth--
		w.close(opened)
		return nil
	}
	for {
		if err := w.value(); err != nil {
			return err
		}
		switch w.peek() {
		case ',':
			w.i++
		case ']':
			w.i++
			w.depth--
			w.close(opened)
			return nil
		default:
			return w.fail("want ',' or ']' after an array element")
		}
	}
}

// object walks the object at the next non-space byte, calling member with
// the offset where each member's key starts, the key as it is in the input
// (quoted, escapes and all) and whether it holds escapes; member must walk
// the member's value.
func (w *walker) object(member func(start int, key []byte, escaped bool) error) error {
	if w.peek() != '{' {
		return w.fail("want an object")
	}
	if w.depth++; w.depth > maxDepth {
		return w.fail("nested too deeply")
	}
	opened := w.open()
	w.i++
	if w.peek() == '}' {
		w.i++
		w.depth--
		w.close(opened)
		return nil
	}
	for {
		w.space()
		start := w.i
		escaped, err := w.str()
		if err != nil {
			return err
		}
		w.asName()
		key := w.b[start:w.i]
		if w.peek() != ':' {
			return w.fail("want ':' after an object key")
		}
		w.i++
		if err := member(start, key, escaped); err != nil {
			return err
		}
		switch w.peek() {
		case ',':
			w.i++
		case '}':
			w.i++
			w.depth--
			w.close(opened)
			return nil
		default:
			return w.fail("want ',' or '}' after an object member")
		}
	}
}

// array walks the array at the next non-space byte, calling elem for each
// element, which must walk it.
func (w *walker) array(elem func() error) error {
	if w.peek() != '[' {
		return w.fail("want an array")
	}
	if w.depth++; w.depth > maxDepth {
		return w.fail("nested too deeply")
	}
	opened := w.open()
	w.i++
	if w.peek() == ']' {
		w.i++
		w.depth--
		w.close(opened)
		return nil
	}
	for {
		if err := elem(); err != nil {
			return err
		}
		switch w.peek() {
		case ',':
			w.i++
		case ']':
			w.i++
			w.depth--
			w.close(opened)
			return nil
		default:
			return w.fail("want ',' or ']' after an array element")
		}
	}
}

// unquote returns the contents of a JSON string as it is in the input,
// quotes and all (an object key, a string value), unescaping it when it holds
// escapes: "api\u0056ersion" is apiVersion. Without escapes it is a slice of
// the input, so that comparing it, as in switch string(unquote(key, escaped)),
// allocates nothing.
func unquote(quoted []byte, escaped bool) []byte {
	if !escaped {
		return quoted[1 : len(quoted)-1]
	}
	s, err := strconv.Unquote(string(quoted))
	if err != nil {
		// Valid JSON escapes strconv does not take (\/, a lone
		// surrogate): encoding/json decodes them as the decoders do.
		_ = json.Unmarshal(quoted, &s)
	}
	return []byte(s)
}

// stringValue walks a value that must be a JSON string and returns it.
func (w *walker) stringValue(what string) (string, error) {
	if w.peek() != '"' {
		start := w.i
		if err := w.value(); err != nil {
			return "", err
		}
		return "", fmt.Errorf("%s is %s, not a string", what, describeValue(w.b[start:w.i]))
	}
	start := w.i
	escaped, err := w.str()
	if err != nil {
		return "", err
	}
	return string(unquote(w.b[start:w.i], escaped)), nil
}

// repeatedString walks the string at w.i and returns it, as *last when it
// is the same, so that the objects of a review, which mostly share their
// apiVersion and kind, share one copy of each; *last becomes the string.
func (w *walker) repeatedString(last *string) (string, error) {
	start := w.i
	escaped, err := w.str()
	if err != nil {
		return "", err
	}
	if v := unquote(w.b[start:w.i], escaped); string(v) != *last {
		*last = string(v)
	}
	return *last, nil
}

func describeValue(v []byte) string {
	if len(v) > 20 {
		return string(v[:20]) + "..."
	}
	return string(v)
}

// Valid reports whether b is one valid JSON value, as json.Valid does.
func Valid(b []byte) bool {
	w := walker{b: b}
	if err := w.value(); err != nil {
		return false
	}
	w.space()
	return w.i == len(b)
}

// errors of the envelope's shape, as opposed to its syntax.
var errNotObject = errors.New("not a JSON object")
