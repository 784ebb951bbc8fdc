package lossless

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"sync"
)

// Losses in JSON only.
//
// A generated loss check (Checked) and a Go round trip look at Go values,
// but the converted object travels as JSON, and two shapes of a destination
// type write less than its Go value holds:
//
//   - an embedded pointer to a struct, `*Extra json:",inline"`, whose
//     struct writes no member for the value it holds: it reads back nil,
//     although the source's struct wrote a member (a struct field, which
//     omitempty never leaves out) for a non-nil pointer (apigen seed
//     174312854);
//   - an omitzero field of a type with an IsZero method, which JSON leaves
//     out when IsZero says so, though the Go value is not the zero value
//     (a *resource.Quantity of "0"): it reads back as the zero value, while
//     the source's field wrote it (apigen seed 71).
//
// For a destination type that holds either shape, the converted object is
// judged as JSON reads it back (jsonImage): converted back from there, what
// differs from the source is stashed, whatever the loss check says.

var hidesInJSONOf sync.Map // reflect.Type → bool

// hidesInJSON reports whether the data of root type t (all but its
// TypeMeta and ObjectMeta, which the stash leaves out and whose own omitzero
// times would count every kind) may write less in JSON than its Go value
// holds, in one of the shapes above.
func hidesInJSON(t reflect.Type) bool {
	if h, ok := hidesInJSONOf.Load(t); ok {
		return h.(bool)
	}
	seen := map[reflect.Type]bool{typeMetaType: true, objectMetaType: true}
	h := reachesHiding(t, seen)
	hidesInJSONOf.Store(t, h)
	return h
}

// reachesHiding reports whether a value of type t may hold one of the
// shapes above. seen holds the types already looked into.
func reachesHiding(t reflect.Type, seen map[reflect.Type]bool) bool {
	if seen[t] || hasMarshaler(t) {
		return false
	}
	seen[t] = true
	switch t.Kind() {
	case reflect.Pointer, reflect.Slice, reflect.Array, reflect.Map:
		return reachesHiding(t.Elem(), seen)
	case reflect.Struct:
		for _, f := range fieldsOf(t).fields {
			if f.omitZero && hasIsZero(f.typ) {
				return true
			}
		}
		for i := 0; i < t.NumField(); i++ {
			if f := t.Field(i); inlinePointer(f) || reachesHiding(f.Type, seen) {
				return true
			}
		}
	}
	return false
}

// hasInlinePointer reports whether struct type t has a field inlinePointer
// says so of.
func hasInlinePointer(t reflect.Type) bool {
	for i := 0; i < t.NumField(); i++ {
		if inlinePointer(t.Field(i)) {
			return true
		}
	}
	return false
}

// inlinePointer reports whether encoding/json promotes the fields of f, an
// embedded pointer to a struct, into the embedding struct: then a non-nil
// f whose struct writes no member reads back nil, even a struct with no
// fields at all (which the stash's embedded pointers, found through the
// fields promoted, leave out).
func inlinePointer(f reflect.StructField) bool {
	if !f.Anonymous || f.Type.Kind() != reflect.Pointer || f.Type.Elem().Kind() != reflect.Struct {
		return false
	}
	tag := f.Tag.Get("json")
	name, _, _ := strings.Cut(tag, ",")
	return tag != "-" && name == ""
}

var isZeroerType = reflect.TypeOf((*interface{ IsZero() bool })(nil)).Elem()

// hasIsZero reports whether encoding/json asks a value of type t whether it
// is zero (through a pointer to it, too) rather than comparing it with t's
// zero value.
func hasIsZero(t reflect.Type) bool {
	return t.Implements(isZeroerType) || reflect.PointerTo(t).Implements(isZeroerType)
}

// judgedInJSON reports whether a conversion with d is judged as JSON reads
// the destination back: its type hides data in JSON, or the source's shows
// in JSON whether a struct is zero (zeroshown.go).
func (d Direction[S, D]) judgedInJSON() bool {
	return hidesInJSON(reflect.TypeOf((*D)(nil)).Elem()) || showsZero(reflect.TypeOf((*S)(nil)).Elem())
}

// canLose reports whether converting with d may stash data: a loss the
// direction knows of, or one in JSON only.
func (d Direction[S, D]) canLose() bool {
	return d.loss != lossNone || d.judgedInJSON()
}

// readBack returns dst as encoding/json reads it back when hides says its
// type hides data in JSON, and dst itself otherwise or when it has no JSON
// form. Read without the nulls the API server drops (stored.go) of members
// promoted through an embedded pointer, which would allocate the pointer
// the API server's answer leaves nil (apigen seed 290104304: an embedded
// struct holding only a nil pointer without omitempty). Other nulls read
// back as absence does; dropping them would judge what the source holds
// too (a null map value, apigen seed 477373919) a loss of the source alone.
func readBack[D any](dst *D, hides bool) *D {
	if !hides {
		return dst
	}
	data, err := json.Marshal(dst)
	if err != nil {
		return dst
	}
	if t := reflect.TypeOf(dst).Elem(); reachesEmbed(t, map[reflect.Type]bool{}) {
		if data, err = promotedNullsDropped(data, t); err != nil {
			return dst
		}
	}
	read := new(D)
	if json.Unmarshal(data, read) != nil {
		return dst
	}
	return read
}

// promotedNullsDropped returns data, the JSON of a value of type t,
// without the null members promoted through embedded pointers.
func promotedNullsDropped(data []byte, t reflect.Type) ([]byte, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	dropNulls(v, t, true)
	return json.Marshal(v)
}
