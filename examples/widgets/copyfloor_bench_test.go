package widgets_test

import (
	"bytes"
	"encoding/json"
	"net/http"
)

// copyFloorHandler is what no conversion can beat: it reads the review,
// checks it is JSON, finds request.uid and each object, and writes the
// objects back verbatim in a response, in one pass over the request
// (floorScan). Converting costs what it takes beyond this.
type copyFloorHandler struct{}

func (copyFloorHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var body bytes.Buffer
	// Sized once, as crdforge's handler sizes it: ReadFrom alone grows the
	// buffer step by step, copying and clearing the body as it goes.
	body.Grow(int(r.ContentLength) + bytes.MinRead)
	if _, err := body.ReadFrom(r.Body); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	in, ok := scanFloorReview(body.Bytes())
	if !ok {
		http.Error(w, "not a ConversionReview in JSON", http.StatusBadRequest)
		return
	}
	writeFloorResponse(w, in, body.Len(), func(out []byte, raw json.RawMessage) ([]byte, int, error) {
		return append(out, raw...), 0, nil
	})
}

// scanFloorReview checks that b is one JSON value, an object, and reads
// from it apiVersion, kind, request.uid and each of request.objects (as the
// bytes it is in b), as far as they are there.
func scanFloorReview(b []byte) (in floorReview[json.RawMessage], ok bool) {
	s := floorScan{b: b}
	s.space()
	s.object(func(name []byte) {
		switch string(name) {
		case "apiVersion":
			in.APIVersion = s.stringValue()
		case "kind":
			in.Kind = s.stringValue()
		case "request":
			s.object(func(name []byte) {
				switch string(name) {
				case "uid":
					in.Request.UID = s.stringValue()
				case "objects":
					s.array(func(start int) { in.Request.Objects = append(in.Request.Objects, b[start:s.i]) })
				default:
					s.value()
				}
			})
		default:
			s.value()
		}
	})
	s.space()
	return in, s.ok() && s.i == len(b)
}

// floorScan validates JSON as json.Valid does, in one pass; the first
// error stops it (bad is set, and i is past the end).
type floorScan struct {
	b   []byte
	i   int
	bad bool
}

func (s *floorScan) ok() bool { return !s.bad }

func (s *floorScan) fail() { s.bad, s.i = true, len(s.b)+1 }

func (s *floorScan) peek() byte {
	if s.i < len(s.b) {
		return s.b[s.i]
	}
	return 0
}

func (s *floorScan) space() {
	for s.i < len(s.b) && (s.b[s.i] == ' ' || s.b[s.i] == '\n' || s.b[s.i] == '\t' || s.b[s.i] == '\r') {
		s.i++
	}
}

// expect reads c, after white space.
func (s *floorScan) expect(c byte) {
	if s.space(); s.peek() != c {
		s.fail()
		return
	}
	s.i++
}

func (s *floorScan) value() {
	s.space()
	switch c := s.peek(); {
	case c == '{':
		s.object(func([]byte) { s.value() })
	case c == '[':
		s.array(func(int) {})
	case c == '"':
		s.str()
	case c == '-' || c >= '0' && c <= '9':
		s.number()
	case c == 't':
		s.literal("true")
	case c == 'f':
		s.literal("false")
	case c == 'n':
		s.literal("null")
	default:
		s.fail()
	}
}

// object reads an object, calling member with each member's name (as it
// is between its quotes) to read its value.
func (s *floorScan) object(member func(name []byte)) {
	s.expect('{')
	if s.space(); s.peek() == '}' {
		s.i++
		return
	}
	for s.ok() {
		s.space()
		start := s.i
		s.str()
		end := s.i
		if s.expect(':'); !s.ok() {
			return
		}
		member(s.b[start+1 : end-1])
		if s.space(); s.peek() == ',' {
			s.i++
			continue
		}
		s.expect('}')
		return
	}
}

// array reads an array, calling element after each element with where it
// started; s.i is then where it ends.
func (s *floorScan) array(element func(start int)) {
	s.expect('[')
	if s.space(); s.peek() == ']' {
		s.i++
		return
	}
	for s.ok() {
		s.space()
		start := s.i
		if s.value(); !s.ok() {
			return
		}
		element(start)
		if s.space(); s.peek() == ',' {
			s.i++
			continue
		}
		s.expect(']')
		return
	}
}

func (s *floorScan) str() {
	if s.peek() != '"' {
		s.fail()
		return
	}
	for s.i++; s.i < len(s.b); s.i++ {
		switch c := s.b[s.i]; {
		case c == '"':
			s.i++
			return
		case c < 0x20:
			s.fail()
			return
		case c == '\\':
			if s.i++; s.i >= len(s.b) {
				s.fail()
				return
			}
			switch s.b[s.i] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			case 'u':
				if s.i+4 >= len(s.b) || !isHex(s.b[s.i+1]) || !isHex(s.b[s.i+2]) || !isHex(s.b[s.i+3]) || !isHex(s.b[s.i+4]) {
					s.fail()
					return
				}
				s.i += 4
			default:
				s.fail()
				return
			}
		}
	}
	s.fail()
}

func isHex(c byte) bool { return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }

// stringValue reads a string and returns it unquoted; another value is
// read and gives "".
func (s *floorScan) stringValue() string {
	if s.space(); s.peek() != '"' {
		s.value()
		return ""
	}
	start := s.i
	s.str()
	if !s.ok() {
		return ""
	}
	var v string
	_ = json.Unmarshal(s.b[start:s.i], &v) // valid: s.str read it
	return v
}

func (s *floorScan) number() {
	digits := func() int {
		n := 0
		for s.i < len(s.b) && s.b[s.i] >= '0' && s.b[s.i] <= '9' {
			s.i++
			n++
		}
		return n
	}
	if s.peek() == '-' {
		s.i++
	}
	if s.peek() == '0' {
		s.i++
	} else if digits() == 0 {
		s.fail()
		return
	}
	if s.peek() == '.' {
		if s.i++; digits() == 0 {
			s.fail()
			return
		}
	}
	if c := s.peek(); c == 'e' || c == 'E' {
		if s.i++; s.peek() == '+' || s.peek() == '-' {
			s.i++
		}
		if digits() == 0 {
			s.fail()
		}
	}
}

func (s *floorScan) literal(word string) {
	if !bytes.HasPrefix(s.b[s.i:], []byte(word)) {
		s.fail()
		return
	}
	s.i += len(word)
}

// floorValid is json.Valid by floorScan.
func floorValid(b []byte) bool {
	s := floorScan{b: b}
	s.value()
	s.space()
	return s.ok() && s.i == len(b)
}
