package lossless

import "reflect"

// SemanticEqual gives the external tests (equal_fuzz_test.go, which fills
// objects with conversiontest's fill functions, and conversiontest imports
// this package) the equality under test. a and b are pointers, so that the
// values compared are addressable, as in a conversion.
func SemanticEqual(a, b any) bool {
	return semanticEqual(reflect.ValueOf(a), reflect.ValueOf(b))
}
