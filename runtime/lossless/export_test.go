package lossless

import (
	"encoding/json"
	"errors"
	"reflect"
)

// SemanticEqual gives the external tests (equal_fuzz_test.go, which fills
// objects with conversiontest's fill functions, and conversiontest imports
// this package) the equality under test. a and b are pointers, so that the
// values compared are addressable, as in a conversion.
func SemanticEqual(a, b any) bool {
	return semanticEqual(reflect.ValueOf(a), reflect.ValueOf(b))
}

// SparseDiff gives the external tests the sparse stash's diff of a and b,
// pointers to objects of one root type: the JSON it stashes, "" when they
// do not differ.
func SparseDiff(a, b any) (string, error) {
	fields, ok := rootDiff(reflect.TypeOf(a).Elem())
	if !ok {
		return "", errors.New("the sparse stash cannot walk the type")
	}
	w := &sparseWriter{}
	w.enc = json.NewEncoder(&w.buf)
	_, err := w.diff(reflect.ValueOf(a).UnsafePointer(), reflect.ValueOf(b).UnsafePointer(), fields)
	return w.buf.String(), err
}
