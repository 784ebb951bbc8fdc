package lossless

import (
	"encoding/json"
	"reflect"
	"strings"
)

// JSON images: what restoreSparse compares when dst and base differ in Go.
//
// dst reached this conversion as JSON (from the API server, a client, or
// etcd), and the stash is JSON too; base is made in memory. Some Go
// differences do not survive JSON: an embedded pointer to a struct whose
// fields JSON all omits, or writes only as nulls the API server drops
// (stored.go), reads back nil, and a list element holding one reads back
// without it. Compared in Go, such a difference looks like an
// edit made through the other version, and the stashed field is dropped:
// a spoke-only field behind (or beside, in a list element) an embedded
// pointer the hub's JSON left out was lost although nobody edited it.
//
// So where the Go comparison finds a stashed field changed, restoreSparse
// asks again of the JSON images: dst as JSON reads it back, and base made
// as it would have been had the object of the other version been read from
// JSON, then read back from JSON itself. A field that agrees there was not
// changed in any way a client could see, and is restored. Edits JSON shows
// still differ, and keep dst's value. The images are made once per restore,
// and only when some field needs them.
type jsonImages struct {
	make      func() (out, base reflect.Value, ok bool)
	made, ok  bool
	out, base reflect.Value
}

// unchanged reports whether the images of dst and base agree on the field
// at path: both absent, or semantically equal.
func (j *jsonImages) unchanged(path []int) bool {
	if !j.made {
		j.out, j.base, j.ok = j.make()
		j.made = true
	}
	if !j.ok {
		return false
	}
	return sameField(j.out, j.base, path)
}

// sameField reports whether root objects a and b agree on the field at
// path: absent in both (behind a nil embedded pointer), or semantically
// equal and nil in the same places (nilsagree.go).
func sameField(a, b reflect.Value, path []int) bool {
	fa, inA := lookup(a, path)
	fb, inB := lookup(b, path)
	if inA != inB || !inA {
		return inA == inB
	}
	_, opts, _ := strings.Cut(a.Type().FieldByIndex(path).Tag.Get("json"), ",")
	return semanticEqual(fa, fb) && nilsAgree(fa, fb, hasOption(opts, "omitempty"))
}

// imagesOf returns how to make the JSON images of dst and of the round trip
// of candidate (see jsonImages).
func imagesOf[S, D any](dst, candidate *D, there Direction[S, D], back Direction[D, S]) *jsonImages {
	return &jsonImages{make: func() (reflect.Value, reflect.Value, bool) {
		out, ok := jsonImage(dst)
		if !ok {
			return reflect.Value{}, reflect.Value{}, false
		}
		var through S
		if back.convert(candidate, &through, nil) != nil {
			return reflect.Value{}, reflect.Value{}, false
		}
		read, ok := jsonImage(&through)
		if !ok {
			return reflect.Value{}, reflect.Value{}, false
		}
		var base D
		if there.convert(read, &base, nil) != nil {
			return reflect.Value{}, reflect.Value{}, false
		}
		image, ok := jsonImage(&base)
		if !ok {
			return reflect.Value{}, reflect.Value{}, false
		}
		return reflect.ValueOf(out).Elem(), reflect.ValueOf(image).Elem(), true
	}}
}

// jsonImage returns v as JSON reads it back once the API server has stored
// it (StoredJSON: a null member that alone allocated an embedded pointer is
// gone, and so is the pointer), in memory of its own; false when v does not
// go through JSON.
func jsonImage[T any](v *T) (*T, bool) {
	data, err := json.Marshal(v)
	if err != nil {
		return nil, false
	}
	if data, err = StoredJSON(data, reflect.TypeOf(v)); err != nil {
		return nil, false
	}
	image := new(T)
	if json.Unmarshal(data, image) != nil {
		return nil, false
	}
	return image, true
}
