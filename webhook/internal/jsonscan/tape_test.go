package jsonscan

import (
	"bytes"
	"strings"
	"testing"
)

var tapeCases = []string{
	`{}`,
	`{"apiVersion":"a/v1","kind":"K","metadata":{"name":"n","managedFields":[{"manager":"m","fieldsV1":{"f:a":{}}}],"labels":{"a":"b"}},"spec":{"x":[1,2.5,-3e2,true,false,null]}}`,
	`{"metadata":{"managedFields":[]},"spec":{}}`,
	`{"metadata":{"name":"n","managedFields":null}}`,
	`{"metadata":{"managedFields":[{"a":1}],"name":"n"}}`,
	` { "kind" : "K" , "metadata" : { "uid" : "u" , "managedFields" : [ { } ] } , "status" : { "é" : "\u00e9\"" , "a" : [ [ ] , { } ] } } `,
	"{\"spec\":{\"\xc3\x28\":\"\xe2\x82\",\"ok\":\"\xe2\x82\xac\",\"esc\":\"a\\\\b\\/\"}}",
	`{"metadata":"not an object","spec":{"managedFields":[1]}}`,
	`{"apiVersion":1,"kind":null,"metadata":{"annotations":{"managedFields":"x"}}}`,
}

// Tokens over an object's tape reads what Tokens over the object without
// managedFields reads: every token, read whole or a token at a time.
func TestTokensReadATapeAsTheBytesWithoutManagedFields(t *testing.T) {
	// The objects of one review, each after others on the review's tape.
	review, err := ParseReview([]byte(`{"request":{"objects":[` + strings.Join(tapeCases, ",") + `]}}`))
	if err != nil {
		t.Fatal(err)
	}
	for i, in := range tapeCases {
		// Every op sequence the rebuild makes, at both depth parities.
		for depth := 0; depth < 2; depth++ {
			o := &review.Request.Objects[i]
			var a, b Tokens
			a.Reset(o.WithoutManagedFields())
			b.ResetTape(o.Raw, o.Tape())
			want, errA := rebuild(&a, nil, depth)
			got, errB := rebuild(&b, nil, depth)
			if errA != nil || errB != nil || !bytes.Equal(got, want) || !a.AtEnd() || !b.AtEnd() {
				t.Errorf("%s at depth %d:\ntape  %s (%v, at end %t)\nbytes %s (%v, at end %t)", in, depth, got, errB, b.AtEnd(), want, errA, a.AtEnd())
			}
		}
	}
}

// Calls that do not fit what comes next fail on a tape as on the bytes,
// whatever the calls.
func FuzzTapeAgainstTheBytes(f *testing.F) {
	for _, in := range tapeCases {
		f.Add([]byte(in), []byte{0, 1, 4, 5, 4, 0, 1, 4, 5, 3, 6, 7})
	}
	f.Fuzz(func(t *testing.T, in, ops []byte) {
		// The object second in a review, its tape after another's.
		review, err := ParseReview(append(append([]byte(`{"request":{"objects":[{"a":[{}]},`), in...), "]}}"...))
		if err != nil || len(review.Request.Objects) != 2 || review.Request.Objects[1].Tape() == nil {
			return
		}
		o := &review.Request.Objects[1]
		var a, b Tokens
		a.Reset(o.WithoutManagedFields())
		b.ResetTape(o.Raw, o.Tape())
		read := false // the last call read a name or a string, which Plain is about
		for i, op := range ops {
			var ga, gb any
			switch op % 8 {
			case 0:
				ga, gb = a.Peek(), b.Peek()
			case 1, 2:
				kind := byte('{')
				if op%8 == 2 {
					kind = '['
				}
				ga, gb = a.Begin(kind) == nil, b.Begin(kind) == nil
			case 3:
				ga, gb = a.End() == nil, b.End() == nil
			case 4, 5:
				read = a.Peek() == KindString
				call := (*Tokens).Name
				if op%8 == 5 {
					call = (*Tokens).Value
				}
				va, erra := call(&a)
				vb, errb := call(&b)
				ga, gb = string(va)+"/"+errString(erra), string(vb)+"/"+errString(errb)
				read = read && erra == nil
			case 6:
				ga, gb = a.AtEnd(), b.AtEnd()
			case 7:
				if !read {
					continue
				}
				ga, gb = a.Plain(), b.Plain()
			}
			if ga != gb {
				t.Fatalf("%q, call %d of %v: bytes %v, tape %v", in, i, ops, ga, gb)
			}
		}
	})
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return "error"
}

// An object whose bytes without managedFields a tape cannot stand for has
// none: WithoutManagedFields leaves out the last of two managedFields, or
// of two metadata, which the pass has by then left off the tape.
func TestTapeOnlyWhereItStandsForTheBytes(t *testing.T) {
	for in, want := range map[string]bool{
		`{"metadata":{"managedFields":[],"name":"n"}}`:                    true,
		`{"metadata":{"name":"n"},"spec":{"managedFields":[]}}`:           true,
		`{"metadata":{"managedFields":[],"managedFields":[]}}`:            false,
		`{"metadata":{"managedFields":[1]},"metadata":{"name":"n"}}`:      false,
		`{"metadata":{"name":"a"},"metadata":{"managedFields":[],"x":1}}`: false,
	} {
		o := mustParseObject(t, in)
		if got := o.Tape() != nil; got != want {
			t.Errorf("%s: a tape %t, want %t", in, got, want)
		}
	}
}

func mustParseObject(t *testing.T, in string) Object {
	t.Helper()
	o, err := ParseObject([]byte(in))
	if err != nil {
		t.Fatalf("%s: %v", in, err)
	}
	return o
}

// Tapes stop at tapeLimit: a body of short tokens has objects without one
// (decoded from their bytes), and the tapes' tokens stay within twice the
// body, their buffer within twice that.
func TestTapesStopAtTheirLimit(t *testing.T) {
	dense := `{"a":[` + strings.Repeat("1,", 5000) + `1]}`
	body := `{"request":{"objects":[{"kind":"K"},` + dense + `,{"kind":"K"}]}}`
	var r Review
	if err := r.Parse([]byte(body)); err != nil {
		t.Fatal(err)
	}
	objects := r.Request.Objects
	if objects[0].Tape() == nil || objects[1].Tape() != nil || objects[2].Tape() != nil {
		t.Errorf("tapes of the small, dense and last objects: %t %t %t, want true false false",
			objects[0].Tape() != nil, objects[1].Tape() != nil, objects[2].Tape() != nil)
	}
	if got := r.TapeBytes(); got > 2*(2*len(body)+64*16) {
		t.Errorf("%d bytes of tapes for a %d-byte body", got, len(body))
	}
}

// TestObjectsHoldNoOutgrownArray parses a review whose tapes and metadata
// spans outgrow their arrays several times over, and checks that every
// object's tape and spans are in the review's last arrays: one left in an
// earlier one keeps it alive as long as the review, which a handler keeps
// between requests.
func TestObjectsHoldNoOutgrownArray(t *testing.T) {
	objects := make([]string, 2000)
	for i := range objects {
		objects[i] = `{"kind":"K","metadata":{"name":"` + strings.Repeat("n", 200) + `","labels":{"a":"b"},"managedFields":[{"m":1}]},"spec":{"x":[1,2,3]}}`
	}
	body := `{"request":{"objects":[` + strings.Join(objects, ",") + `]}}`
	var r Review
	if err := r.Parse([]byte(body)); err != nil {
		t.Fatal(err)
	}
	tokens, spans := r.tape[:cap(r.tape)], r.spans[:cap(r.spans)]
	for i, o := range r.Request.Objects {
		if len(o.tape.tokens) == 0 || &o.tape.tokens[0] != &tokens[o.tapeAt] {
			t.Fatalf("object %d's tape is not in the review's tapes", i)
		}
		if len(o.metaMembers) == 0 || &o.metaMembers[0] != &spans[o.metaAt] {
			t.Fatalf("object %d's metadata spans are not in the review's spans", i)
		}
	}
}
