package typedjson

import (
	"bytes"
	"strconv"
	"unsafe"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/crdforge/crdforge/webhook/internal/jsonscan"
)

// Transcoding writes a value as its type's generated encoder would write it
// once its generated decoder had read it, without the value in between. The
// webhook writes so the members of an object that every version holds alike
// and every conversion copies (Codec.Transcode), rather than decode them
// into one version's Go value, copy them into another's, and encode them.
//
// A generated transcoder walks a struct's members on the object's tape,
// notes where each field's value is, and writes the fields in the order and
// form the encoder writes them: a struct, or a slice of structs, by its own
// transcoder; a string as it came in when the encoder would write the same
// bytes (TranscodeString); any other value decoded into a variable of its
// type with the generated decoder's code and encoded with the encoder's.
// It fails where the decoder fails, with the decoder's error.

// maxPass is the most members of one object a decoder passes.
const maxPass = 4

// Pass skips the value of member i of the object a DecodeData reads,
// noting where it is: the webhook transcodes it (Transcode) instead. Only a
// decoder reading a tape can.
func (d *Decoder) Pass(i int) error {
	mark := d.dec.Mark()
	if mark < 0 || i >= maxPass {
		return ErrFallback
	}
	d.passed[i] = mark + 1
	return d.Skip()
}

// Mark returns where d is on its tape; Seek goes back there.
func (d *Decoder) Mark() int { return d.dec.Mark() }

// Seek moves d to mark, from Mark.
func (d *Decoder) Seek(mark int) { d.dec.Seek(mark) }

// Marks are where DecodePassing found the members a decoder passes.
type Marks = [maxPass]int

// DecodePassing is Decode from a tape with a decoder that passes members
// (Pass): it sets marks[i] to where on tape the value of member i is, plus
// one, and to 0 for a member the object does not have.
func DecodePassing[T any](data []byte, tape *Tape, v T, decode func(*Decoder, T) error, marks *Marks) error {
	d := decoders.Get().(*Decoder)
	defer decoders.Put(d)
	d.passed = Marks{}
	if err := decodeWith(d, data, tape, v, decode); err != nil {
		return err
	}
	*marks = d.passed
	return nil
}

// Transcode appends the value at mark, one of DecodePassing's marks (where
// on the tape of data the value is, plus one), as transcode writes it, to b.
func Transcode(data []byte, tape *Tape, mark int, b []byte, transcode func(*Decoder, []byte) ([]byte, error)) ([]byte, error) {
	d := decoders.Get().(*Decoder)
	defer decoders.Put(d)
	d.dec.ResetTape(data, tape)
	d.dec.Seek(mark - 1)
	return transcode(d, b)
}

// TranscodeString appends the string d reads as String decodes it and
// AppendString encodes it, and reports whether it is empty: as it came in
// when it holds no escape, is valid UTF-8 (jsonscan's plain) and holds no
// U+2028 or U+2029, which AppendString escapes (both begin with the byte
// 0xE2, which a plain string mostly lacks); null as "".
func TranscodeString(d *Decoder, b []byte) ([]byte, bool, error) {
	if d.Null() {
		return append(b, `""`...), true, nil
	}
	raw, err := d.value(jsonscan.KindString)
	if err != nil {
		return b, false, err
	}
	if d.dec.Plain() && bytes.IndexByte(raw, 0xE2) < 0 {
		return append(b, raw...), len(raw) == 2, nil
	}
	s := raw[1 : len(raw)-1]
	if !d.dec.Plain() {
		d.name = unquote(d.name[:0], raw)
		s = d.name
	}
	return AppendString(b, unsafe.String(unsafe.SliceData(s), len(s))), len(s) == 0, nil
}

// TranscodeInt appends the integer of bits bits d reads as Int decodes it
// and AppendInt encodes it, and reports whether it is zero, for omitempty:
// as it came in when it has at most 18 digits and is not -0, the only such
// literal AppendInt writes otherwise (JSON's grammar has no leading zeros);
// null as 0. What Int leaves to the reflection codec, the transcoder leaves
// to the typed path (ErrFallback).
func TranscodeInt(d *Decoder, b []byte, bits int) ([]byte, bool, error) {
	if d.Null() {
		return append(b, '0'), true, nil
	}
	s, err := d.number()
	if err != nil {
		return b, false, err
	}
	n, short := shortInt(s)
	if !short {
		if n, err = strconv.ParseInt(s, 10, bits); err != nil {
			return b, false, ErrFallback
		}
		return strconv.AppendInt(b, n, 10), n == 0, nil
	}
	switch {
	case !fits(n, bits):
		return b, false, ErrFallback
	case n == 0:
		return append(b, '0'), true, nil
	}
	return append(b, s...), false, nil
}

// TranscodeSlice appends the array d reads, each element as elem writes
// it, as Slice decodes it and AppendSlice encodes it: null as null. It
// returns how many elements it wrote, for omitempty.
func TranscodeSlice(d *Decoder, b []byte, elem func(*Decoder, []byte) ([]byte, error)) ([]byte, int, error) {
	if d.Null() {
		return append(b, "null"...), 0, nil
	}
	if err := d.Begin('['); err != nil {
		return b, 0, err
	}
	b = append(b, '[')
	n := 0
	for d.More() {
		if n > 0 {
			b = append(b, ',')
		}
		var err error
		if b, err = elem(d, b); err != nil {
			return b, n, err
		}
		n++
	}
	return append(b, ']'), n, d.End()
}

// TranscodeMap appends the object d reads, each member's value as elem
// writes it, as Map decodes it and AppendMap encodes it: null as null. It
// returns how many members it wrote, for omitempty. AppendMap writes the
// names sorted, and of a name given twice Map keeps the last value: so an
// object whose names are not plain (jsonscan's Plain, without the U+2028
// and U+2029 that AppendString escapes) and in strictly increasing order
// is left to the typed path (ErrFallback). The API server writes every map
// so, its names sorted.
func TranscodeMap(d *Decoder, b []byte, elem func(*Decoder, []byte) ([]byte, error)) ([]byte, int, error) {
	if d.Null() {
		return append(b, "null"...), 0, nil
	}
	if err := d.Begin('{'); err != nil {
		return b, 0, err
	}
	b = append(b, '{')
	var last []byte
	n := 0
	for d.More() {
		raw, err := d.dec.Name()
		if err != nil {
			return b, n, err
		}
		name := raw[1 : len(raw)-1]
		if !d.dec.Plain() || bytes.IndexByte(name, 0xE2) >= 0 || n > 0 && bytes.Compare(last, name) >= 0 {
			return b, n, ErrFallback
		}
		last = name
		if n > 0 {
			b = append(b, ',')
		}
		b = append(b, raw...)
		b = append(b, ':')
		if b, err = elem(d, b); err != nil {
			return b, n, err
		}
		n++
	}
	return append(b, '}'), n, d.End()
}

// TranscodeStringMap is TranscodeMap for a map of strings to strings, as
// StringMap decodes it and AppendStringMap encodes it.
func TranscodeStringMap(d *Decoder, b []byte) ([]byte, int, error) {
	return TranscodeMap(d, b, transcodeStringValue)
}

func transcodeStringValue(d *Decoder, b []byte) ([]byte, error) {
	b, _, err := TranscodeString(d, b)
	return b, err
}

// A Transcoder writes the value d reads as its type's generated decoder
// and encoder would (see Transcode): a generated struct transcoder, or one
// of the functions below for a member that is a slice or a map of what
// those transcode.
type Transcoder = func(d *Decoder, b []byte) ([]byte, error)

// SliceTranscoder is the Transcoder of a slice whose elements elem
// transcodes (TranscodeSlice).
func SliceTranscoder(elem Transcoder) Transcoder {
	return func(d *Decoder, b []byte) ([]byte, error) {
		b, _, err := TranscodeSlice(d, b, elem)
		return b, err
	}
}

// MapTranscoder is the Transcoder of a map whose values elem transcodes
// (TranscodeMap).
func MapTranscoder(elem Transcoder) Transcoder {
	return func(d *Decoder, b []byte) ([]byte, error) {
		b, _, err := TranscodeMap(d, b, elem)
		return b, err
	}
}

// StringMapTranscoder is the Transcoder of a map of strings to strings
// (TranscodeStringMap).
func StringMapTranscoder(d *Decoder, b []byte) ([]byte, error) {
	b, _, err := TranscodeStringMap(d, b)
	return b, err
}

// EmptyRaw reports whether raw, a transcoded slice or map, is empty, and so
// left out by omitempty: null, [] or {}.
func EmptyRaw(raw []byte) bool {
	return len(raw) == 2 && (raw[0] == '[' || raw[0] == '{') || string(raw) == "null"
}

// ObjectTape records the tape of data, one JSON object, as the webhook's
// read of a review records an object's: for checking a generated codec's
// DecodePassing and transcoders outside the webhook. It reports false when
// data is no JSON object or has no tape (two metadata members).
func ObjectTape(data []byte) (*Tape, bool) {
	o, err := jsonscan.ParseObject(data)
	if err != nil || o.Tape() == nil {
		return nil, false
	}
	return o.Tape(), true
}

// TranscodeTime appends the time d reads as Time decodes it and AppendTime
// encodes it: as it came in when it is already what AppendTime writes, a
// valid UTC time to the second ("2030-01-02T03:04:05Z", as the API server
// writes every time), so that the transcoder need not parse and format it.
func TranscodeTime(d *Decoder, b []byte) ([]byte, error) {
	if d.dec.Peek() == jsonscan.KindString {
		mark := d.Mark()
		raw, err := d.dec.Value()
		if err != nil {
			return b, err
		}
		if d.dec.Plain() && canonicalTime(raw) {
			return append(b, raw...), nil
		}
		d.Seek(mark)
	}
	var t metav1.Time
	if err := Time(d, &t); err != nil {
		return b, err
	}
	return AppendTime(b, &t), nil
}

// canonicalTime reports whether raw, a string literal, is a time AppendTime
// writes as it is: "YYYY-MM-DDTHH:MM:SSZ", each part in range (time.Parse
// refuses the rest), and not the zero time, which AppendTime writes as null.
func canonicalTime(raw []byte) bool {
	const layout = `"dddd-dd-ddTdd:dd:ddZ"`
	if len(raw) != len(layout) {
		return false
	}
	for i := 0; i < len(layout); i++ {
		if c := raw[i]; layout[i] == 'd' && (c < '0' || c > '9') || layout[i] != 'd' && c != layout[i] {
			return false
		}
	}
	num := func(i, n int) int {
		v := 0
		for _, c := range raw[i : i+n] {
			v = v*10 + int(c-'0')
		}
		return v
	}
	year, month, day := num(1, 4), num(6, 2), num(9, 2)
	if month < 1 || month > 12 || day < 1 || day > daysIn(month, year) || num(12, 2) > 23 || num(15, 2) > 59 || num(18, 2) > 59 {
		return false
	}
	return string(raw) != `"0001-01-01T00:00:00Z"`
}

// daysIn is the number of days of month in year, of the Gregorian calendar.
func daysIn(month, year int) int {
	switch month {
	case 2:
		if year%4 == 0 && (year%100 != 0 || year%400 == 0) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}

// TranscodeTimePointer is TranscodeTime for a *metav1.Time, as Time decodes
// and AppendTime encodes it through the pointer: null is a nil pointer,
// written as null, and reported for omitempty.
func TranscodeTimePointer(d *Decoder, b []byte) ([]byte, bool, error) {
	if d.Null() {
		return append(b, "null"...), true, nil
	}
	b, err := TranscodeTime(d, b)
	return b, false, err
}
