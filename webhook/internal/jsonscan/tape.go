package jsonscan

import "unicode/utf8"

// Tape is the tokens of one object of a review, as the pass that read the
// review found them: where each starts and ends in the object's bytes,
// what it is, and, for an object or array, where its value ends. Tokens
// reads a tape (ResetTape) without walking the bytes again: the review's
// pass validated them, and walking them a second time, token by token, was
// most of what decoding an object cost beyond allocating its values.
//
// An object's tape leaves out its metadata.managedFields member, as
// WithoutManagedFields leaves it out of the bytes: Tokens over the tape
// reads what Tokens over WithoutManagedFields reads.
type Tape struct {
	tokens []token
	// cutStart and cutEnd are the object's (see Object): what an object or
	// array read whole around them leaves out.
	cutStart, cutEnd int
}

// token is one token of a tape. Offsets are into the object's Raw.
type token struct {
	// start and end delimit the token; for '{' and '[', the whole value,
	// up to and with its closing delimiter.
	start, end int32
	// next is the index of the token after this one's value: the next
	// one for a leaf or a name, the one after the closing delimiter for
	// '{' and '['.
	next int32
	// kind is the token's kind as Peek reports it ('{', '[', '}', ']',
	// KindString, KindNumber, KindNull, KindTrue, KindFalse), or kindName
	// for a member's name.
	kind byte
	// plain says, of a string or a name, what Tokens.Plain says.
	plain bool
}

// kindName marks a member's name on a tape; Peek reports it as
// KindString, as it reports a name it walks.
const kindName = ':'

// taping is what a walker records, while it records an object's tape.
type taping struct {
	on bool
	// base is the offset in the walker's bytes of the object taped, first
	// the index in tokens of its first token: a tape's offsets and
	// indices are its object's own.
	base, first int
	// tokens is every object's tape, one after another.
	tokens []token
	// broken says the object's tape cannot stand for its bytes without
	// managedFields: it had two metadata members, or two managedFields
	// members, where WithoutManagedFields leaves out the last one only; or
	// the tapes reached limit.
	broken bool
	// limit bounds len(tokens): a body of short tokens ("[1,1,1,...]")
	// would make tapes eight times its size. Objects past it have none.
	limit int
}

// tapeLimit is the most tokens the tapes of a body of n bytes hold: one per
// eight bytes, tokens of at most twice the body (and a buffer, as append
// grows it, of at most twice that), where an object as the API server
// stores it has one per twenty bytes or more; and a few for the smallest
// bodies.
func tapeLimit(n int) int { return n/8 + 64 }

// room reports whether the tapes take one more token; when not, the
// object taped has none.
func (w *walker) room() bool {
	if len(w.tape.tokens) < w.tape.limit {
		return true
	}
	w.tape.broken, w.tape.on = true, false
	return false
}

// leaf records the leaf that ends at w.i and started at start.
func (w *walker) leaf(kind byte, start int) {
	if !w.room() {
		return
	}
	w.tape.tokens = append(w.tape.tokens, token{
		start: int32(start - w.tape.base), end: int32(w.i - w.tape.base),
		next: int32(len(w.tape.tokens) + 1 - w.tape.first), kind: kind,
	})
}

// stringLeaf records the string that ends at w.i and started at start.
func (w *walker) stringLeaf(start int, escaped bool) {
	if w.leaf(KindString, start); !w.tape.on {
		return
	}
	w.tape.tokens[len(w.tape.tokens)-1].plain = !escaped && (!w.nonASCII || utf8.Valid(w.b[start+1:w.i-1]))
}

// asName marks the string just recorded as a member's name.
func (w *walker) asName() {
	if w.tape.on {
		w.tape.tokens[len(w.tape.tokens)-1].kind = kindName
	}
}

// open records the opening delimiter at w.i and returns its index, which
// close takes; -1 when w records nothing.
func (w *walker) open() int {
	if !w.tape.on || !w.room() {
		return -1
	}
	w.tape.tokens = append(w.tape.tokens, token{start: int32(w.i - w.tape.base), kind: w.b[w.i]})
	return len(w.tape.tokens) - 1
}

// close records the closing delimiter just walked (w.i is past it) of the
// container opened at index opened.
func (w *walker) close(opened int) {
	if opened < 0 || !w.tape.on {
		return
	}
	w.leaf(w.b[w.i-1], w.i-1)
	t := &w.tape.tokens[opened]
	t.end, t.next = int32(w.i-w.tape.base), int32(len(w.tape.tokens)-w.tape.first)
}

// ResetTape makes t read data, an object of a review, from its tape, tape
// (see Object.Tape).
func (t *Tokens) ResetTape(data []byte, tape *Tape) {
	t.Reset(data)
	t.tape, t.pos, t.cutStart, t.cutEnd = tape.tokens, 0, tape.cutStart, tape.cutEnd
}

// The Tokens methods on a tape: the review's pass validated the bytes, so
// the only failures left are calls that do not fit what comes next, which
// fail as they do on bytes.

func (t *Tokens) tapePeek() byte {
	if t.err != nil || t.pos >= len(t.tape) {
		return 0
	}
	if k := t.tape[t.pos].kind; k != kindName {
		return k
	}
	return KindString
}

func (t *Tokens) tapeBegin(kind byte) error {
	if t.err != nil || t.pos >= len(t.tape) || t.tape[t.pos].kind != kind || kind != '{' && kind != '[' {
		return t.fail(errUnexpected)
	}
	t.pos++
	return nil
}

func (t *Tokens) tapeEnd() error {
	if t.err != nil || t.pos >= len(t.tape) || t.tape[t.pos].kind != '}' && t.tape[t.pos].kind != ']' {
		return t.fail(errUnexpected)
	}
	t.pos++
	return nil
}

func (t *Tokens) tapeName() ([]byte, error) {
	if t.err != nil || t.pos >= len(t.tape) || t.tape[t.pos].kind != kindName {
		return nil, t.fail(errUnexpected)
	}
	tok := &t.tape[t.pos]
	t.pos++
	t.plain = tok.plain
	return t.w.b[tok.start:tok.end], nil
}

func (t *Tokens) tapeValue() ([]byte, error) {
	if t.err != nil || t.pos >= len(t.tape) {
		return nil, t.fail(errUnexpected)
	}
	tok := &t.tape[t.pos]
	switch tok.kind {
	case kindName, '}', ']':
		return nil, t.fail(errUnexpected)
	}
	t.pos = int(tok.next)
	t.plain = tok.plain
	start, end := int(tok.start), int(tok.end)
	if t.cutEnd != 0 && start <= t.cutStart && t.cutEnd <= end {
		// The metadata, or the object, read whole: without managedFields,
		// as WithoutManagedFields has it. No generated decoder reads
		// either whole but where a type has no ObjectMeta of its own.
		whole := make([]byte, 0, end-start-(t.cutEnd-t.cutStart))
		return append(append(whole, t.w.b[start:t.cutStart]...), t.w.b[t.cutEnd:end]...), nil
	}
	return t.w.b[start:end], nil
}

// Elements returns how many values the array just begun holds, counted
// on the tape, one step per value, so that a decoder sizes its slice once;
// 0 when t reads no tape, or the tape's next token ends no array.
func (t *Tokens) Elements() int {
	if t.tape == nil || t.err != nil {
		return 0
	}
	n, p := 0, t.pos
	for p < len(t.tape) && t.tape[p].kind != ']' {
		if k := t.tape[p].kind; k == '}' || k == kindName {
			return 0
		}
		n, p = n+1, int(t.tape[p].next)
	}
	if p >= len(t.tape) {
		return 0
	}
	return n
}

func (t *Tokens) tapeAtEnd() bool {
	return t.err == nil && t.pos > 0 && t.pos == len(t.tape)
}

// Mark returns where t is on its tape, for Seek; -1 when t reads no tape.
func (t *Tokens) Mark() int {
	if t.tape == nil {
		return -1
	}
	return t.pos
}

// Seek moves t to mark, where Mark found it on the same tape.
func (t *Tokens) Seek(mark int) { t.pos = mark }
