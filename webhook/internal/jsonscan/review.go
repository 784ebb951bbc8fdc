package jsonscan

import (
	"fmt"
	"unsafe"
)

// Review is a ConversionReview's envelope, apiextensions.k8s.io/v1 or
// v1beta1 (both have the same shape). As everywhere in JSON the API server
// decodes, names are case-sensitive and the last of duplicate names wins.
type Review struct {
	APIVersion, Kind string
	// Request is nil when the review has none, or a null one.
	Request *Request

	// req is where Request points when there is one, kept with its
	// objects' slice for the next Parse.
	req Request
	// spans holds the objects' metaMembers, and tape their tapes, kept
	// for the next Parse.
	spans []int32
	tape  []token
}

// Request is a ConversionReview's request.
type Request struct {
	UID, DesiredAPIVersion string
	Objects                []Object
}

// Object is one object of a request: a slice of the body, and what the
// webhook reads of it before decoding it into its own type.
type Object struct {
	// Raw is the object's JSON, a slice of the body.
	Raw []byte
	// APIVersion and Kind are the object's top-level apiVersion and kind,
	// the last of each when a name repeats; HasAPIVersion and HasKind say
	// whether they are there at all.
	APIVersion, Kind       string
	HasAPIVersion, HasKind bool
	// NotObject says Raw is a JSON value other than an object: nothing
	// else is read of it, and converting it fails.
	NotObject bool
	// Metadata is the raw value of the object's metadata, a slice of Raw;
	// nil when there is none or it is not an object.
	Metadata []byte
	// metaMembers are where each member of Metadata starts and ends
	// (from its key to the end of its value), in pairs of offsets into
	// Metadata, as the pass that read it found them.
	metaMembers []int32
	// metaMaps says which of metaMembers are the labels and annotations.
	metaMaps metaMaps
	// cutStart and cutEnd delimit, in Raw, the metadata's managedFields
	// member with one comma beside it, when there is one: what
	// WithoutManagedFields leaves out.
	cutStart, cutEnd int
	// tape is the object's tokens but managedFields, as the pass that
	// read it found them; empty when they cannot stand for
	// WithoutManagedFields (see taping.broken).
	tape Tape
	// tapeAt and metaAt are where tape and metaMembers start in the
	// review's tapes and spans, for rebase.
	tapeAt, metaAt int32
}

// TapeBytes is the memory r keeps for the tapes of its next Parse: up to
// 16 bytes for every token of the last review's objects, several times
// the body's size for a body of short tokens.
func (r *Review) TapeBytes() int { return cap(r.tape) * int(unsafe.Sizeof(token{})) }

// Tape returns the object's tape, for Tokens.ResetTape to read what
// WithoutManagedFields holds without walking it again; nil when there is
// none (an object with two metadata or two managedFields members, which
// only the bytes tell apart).
func (o *Object) Tape() *Tape {
	if len(o.tape.tokens) == 0 {
		return nil
	}
	return &o.tape
}

// WithoutManagedFields returns the object's JSON without its
// metadata.managedFields, which a conversion never reads and which is often
// most of an object's bytes: decoding it would be wasted, since the webhook
// returns the metadata it received. It returns Raw itself when there is
// nothing to leave out, and a copy otherwise.
func (o *Object) WithoutManagedFields() []byte {
	if o.cutEnd == 0 {
		return o.Raw
	}
	return o.AppendWithoutManagedFields(make([]byte, 0, len(o.Raw)-(o.cutEnd-o.cutStart)))
}

// AppendWithoutManagedFields appends the object's JSON without its
// metadata.managedFields to dst, for a caller that reuses one buffer.
func (o *Object) AppendWithoutManagedFields(dst []byte) []byte {
	if o.cutEnd == 0 {
		return append(dst, o.Raw...)
	}
	dst = append(dst, o.Raw[:o.cutStart]...)
	return append(dst, o.Raw[o.cutEnd:]...)
}

// ParseReview validates body as JSON and reads a ConversionReview's
// envelope from it in the same pass. It returns a *SyntaxError for JSON that
// is not valid, and another error for valid JSON that is no
// ConversionReview's shape (a request that is not an object, an object
// that is not one, a uid that is not a string, ...). What the envelope
// holds (versions, a missing uid) is for the caller to check.
func ParseReview(body []byte) (*Review, error) {
	r := new(Review)
	if err := r.Parse(body); err != nil {
		return nil, err
	}
	return r, nil
}

// Parse is ParseReview into r, reusing the memory of r's last request, as a
// server reading one review after another does. What r held before is
// forgotten; when Parse fails, r is left empty.
func (r *Review) Parse(body []byte) error {
	r.reset()
	err := r.parse(body)
	if err != nil {
		r.reset()
	}
	return err
}

// reset empties r but for the capacity of its objects' slice.
func (r *Review) reset() {
	objects := r.req.Objects
	clear(objects[:cap(objects)]) // no hold on the bodies of past reviews
	*r = Review{req: Request{Objects: objects[:0]}, spans: r.spans[:0], tape: r.tape[:0]}
}

func (r *Review) parse(body []byte) error {
	w := &walker{b: body, spans: r.spans[:0], tape: taping{tokens: r.tape[:0], limit: tapeLimit(len(body))}}
	defer func() { r.spans, r.tape = w.spans[:0], w.tape.tokens[:0] }()
	if w.peek() != '{' {
		if err := w.value(); err != nil {
			return err
		}
		if w.space(); w.i != len(body) {
			return w.fail("data after the JSON value")
		}
		return errNotObject
	}
	var shape error // the first shape error; the walk goes on to validate
	note := func(err error) {
		if shape == nil {
			shape = err
		}
	}
	err := w.object(func(_ int, key []byte, escaped bool) error {
		var err error
		switch string(unquote(key, escaped)) {
		case "apiVersion":
			r.APIVersion, err = w.stringValue("apiVersion")
		case "kind":
			r.Kind, err = w.stringValue("kind")
		case "request":
			r.Request = nil
			switch w.peek() {
			case 'n':
				return w.literal("null")
			case '{':
				r.req = Request{Objects: r.req.Objects[:0]}
				r.Request = &r.req
				return w.request(r.Request, note)
			}
			start := w.i
			if err := w.value(); err != nil {
				return err
			}
			note(fmt.Errorf("request is %s, not an object", describeValue(w.b[start:w.i])))
			return nil
		default:
			return w.value()
		}
		if _, syntax := err.(*SyntaxError); err != nil && !syntax {
			note(err)
			return nil
		}
		return err
	})
	if err != nil {
		return err
	}
	if w.space(); w.i != len(body) {
		return w.fail("data after the ConversionReview")
	}
	if r.Request != nil {
		rebase(r.Request.Objects, w.tape.tokens, w.spans)
	}
	return shape
}

// rebase points every object's tape and metadata spans into the review's
// final arrays. Taken as the walk went, they point into the arrays of their
// time, which appending to the tapes and spans outgrew and the objects
// kept alive, with an idle handler's state: for a 3 MiB review of stored
// objects, 11 MB of outgrown tapes beside the last 3 MB.
func rebase(objects []Object, tokens []token, spans []int32) {
	for i := range objects {
		o := &objects[i]
		if n := int32(len(o.tape.tokens)); n > 0 {
			o.tape.tokens = tokens[o.tapeAt : o.tapeAt+n : o.tapeAt+n]
		}
		if n := int32(len(o.metaMembers)); n > 0 {
			o.metaMembers = spans[o.metaAt : o.metaAt+n : o.metaAt+n]
		}
	}
}

// request walks a ConversionReview's request into req.
func (w *walker) request(req *Request, note func(error)) error {
	return w.object(func(_ int, key []byte, escaped bool) error {
		var err error
		switch string(unquote(key, escaped)) {
		case "uid":
			req.UID, err = w.stringValue("request.uid")
		case "desiredAPIVersion":
			req.DesiredAPIVersion, err = w.stringValue("request.desiredAPIVersion")
		case "objects":
			req.Objects = req.Objects[:0]
			switch w.peek() {
			case 'n':
				req.Objects = nil
				return w.literal("null")
			case '[':
				return w.array(func() error {
					if w.peek() != '{' {
						// One element that is not an object is that
						// element's failure, not the review's.
						w.space()
						start := w.i
						if err := w.value(); err != nil {
							return err
						}
						req.Objects = append(req.Objects, Object{Raw: w.b[start:w.i], NotObject: true})
						return nil
					}
					o, err := w.object1()
					if err != nil {
						return err
					}
					req.Objects = append(req.Objects, o)
					return nil
				})
			}
			start := w.i
			if err := w.value(); err != nil {
				return err
			}
			note(fmt.Errorf("request.objects is %s, not an array", describeValue(w.b[start:w.i])))
			return nil
		default:
			return w.value()
		}
		if _, syntax := err.(*SyntaxError); err != nil && !syntax {
			note(err)
			return nil
		}
		return err
	})
}

// object1 walks one object of a request, recording its type meta, its
// metadata's place and its tape.
func (w *walker) object1() (Object, error) {
	w.space()
	start := w.i
	var o Object
	var metaStart, cutStart, cutEnd int
	metadataSeen := false
	first := len(w.tape.tokens)
	w.tape = taping{on: true, base: start, first: first, tokens: w.tape.tokens, limit: w.tape.limit}
	defer func() { w.tape.on = false }()
	err := w.object(func(_ int, key []byte, escaped bool) error {
		switch string(unquote(key, escaped)) {
		case "apiVersion":
			if w.peek() == '"' {
				v, err := w.repeatedString(&w.apiVersion)
				o.APIVersion, o.HasAPIVersion = v, true
				return err
			}
			o.APIVersion, o.HasAPIVersion = "", false
		case "kind":
			if w.peek() == '"' {
				v, err := w.repeatedString(&w.kind)
				o.Kind, o.HasKind = v, true
				return err
			}
			o.Kind, o.HasKind = "", false
		case "metadata":
			if metadataSeen {
				w.tape.broken = true
			}
			metadataSeen = true
			o.Metadata, cutStart, cutEnd = nil, 0, 0
			if w.peek() != '{' {
				return w.value()
			}
			metaStart = w.i
			first := len(w.spans)
			cs, ce, maps, err := w.metadata()
			if err != nil {
				return err
			}
			o.Metadata = w.b[metaStart:w.i]
			o.metaMembers, o.metaAt = w.spans[first:len(w.spans):len(w.spans)], int32(first)
			o.metaMaps = maps
			cutStart, cutEnd = cs, ce
			return nil
		}
		return w.value()
	})
	if err != nil {
		return Object{}, err
	}
	o.Raw = w.b[start:w.i]
	if cutEnd != 0 {
		o.cutStart, o.cutEnd = cutStart-start, cutEnd-start
	}
	if !w.tape.broken {
		o.tape = Tape{tokens: w.tape.tokens[first:len(w.tape.tokens):len(w.tape.tokens)], cutStart: o.cutStart, cutEnd: o.cutEnd}
		o.tapeAt = int32(first)
	}
	return o, nil
}

// metadata walks an object's metadata and returns the span of its last
// managedFields member, with one comma beside it, in body offsets; zeros
// when there is none.
func (w *walker) metadata() (cutStart, cutEnd int, maps metaMaps, err error) {
	prevComma := -1 // the offset of the comma before the current member
	open := w.i
	taped := false // a managedFields member was left off the tape
	members := int32(0)
	err = w.object(func(start int, key []byte, escaped bool) error {
		if start > open+1 {
			// The comma before this member is the last one before start.
			for j := start - 1; j > open; j-- {
				if w.b[j] == ',' {
					prevComma = j
					break
				}
			}
		}
		name := unquote(key, escaped)
		managed := string(name) == "managedFields"
		members++
		maps.note(name, members)
		on := w.tape.on
		if managed && on {
			// Off the tape, name and value, as WithoutManagedFields
			// leaves the last one out of the bytes; a second one breaks
			// the tape, which cannot take the first one back.
			w.tape.broken = w.tape.broken || taped
			taped = true
			w.tape.tokens = w.tape.tokens[:len(w.tape.tokens)-1]
			w.tape.on = false
		}
		err := w.value()
		w.tape.on = on
		if err != nil {
			return err
		}
		w.spans = append(w.spans, int32(start-open), int32(w.i-open))
		if !managed {
			return nil
		}
		end := w.i
		if w.peek() == ',' {
			// Leave out the member and the comma after it.
			cutStart, cutEnd = start, w.i+1
			return nil
		}
		if prevComma >= 0 {
			cutStart, cutEnd = prevComma, end // the last member: the comma before it
		} else {
			cutStart, cutEnd = start, end // the only member
		}
		return nil
	})
	return cutStart, cutEnd, maps, err
}

// metaMaps are where an object's metadata has its labels and annotations:
// the number of the member (from 1) in metaMembers; 0 when it has none, -1
// when it has more than one.
type metaMaps struct{ labels, annotations int32 }

// note notes that the metadata's member number n is named name.
func (m *metaMaps) note(name []byte, n int32) {
	var at *int32
	switch string(name) {
	case "labels":
		at = &m.labels
	case "annotations":
		at = &m.annotations
	default:
		return
	}
	if *at != 0 {
		n = -1
	}
	*at = n
}

// ParseObject validates raw and reads it as one object of a request, as
// ParseReview does each of them.
func ParseObject(raw []byte) (Object, error) {
	w := &walker{b: raw, tape: taping{limit: tapeLimit(len(raw))}}
	if w.peek() != '{' {
		return Object{}, errNotObject
	}
	o, err := w.object1()
	if err != nil {
		return Object{}, err
	}
	if w.space(); w.i != len(raw) {
		return Object{}, w.fail("data after the object")
	}
	return o, nil
}

// HasManagedFields reports whether the object's metadata holds
// managedFields, which WithoutManagedFields leaves out.
func (o *Object) HasManagedFields() bool { return o.cutEnd != 0 }
