package lossless

import (
	"bytes"
	"encoding/json"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// emptyMetaFields is what encoding/json writes between the braces of an
// empty metav1.ObjectMeta: nothing from apimachinery v0.33 on, where
// creationTimestamp is omitzero, and "creationTimestamp":null before (this
// module works with the apimachinery of its users, from v0.30 on).
var emptyMetaFields = func() []byte {
	b, err := json.Marshal(&metav1.ObjectMeta{})
	if err != nil || len(b) < 2 {
		return nil
	}
	return b[1 : len(b)-1]
}()

// emptyMetaPrefixes are the two ways an emptied ObjectMeta opens the JSON of
// a root object: as its metadata field, or inline.
var emptyMetaPrefixes = [][]byte{
	append(append([]byte(`{"metadata":{`), emptyMetaFields...), '}'),
	append([]byte(`{`), emptyMetaFields...),
}

// dropEmptyMeta removes, from the JSON of a root object whose metadata
// clearMeta emptied, what older apimachinery still writes of it, so that a
// stash holds no metadata with any apimachinery. Root types declare TypeMeta
// and ObjectMeta first, and an empty TypeMeta writes nothing, so written
// metadata opens the object; a nested ObjectMeta (a template's) is data and
// stays. raw may be reused.
func dropEmptyMeta(raw []byte) []byte {
	if len(emptyMetaFields) == 0 {
		return raw
	}
	for _, prefix := range emptyMetaPrefixes {
		rest, ok := bytes.CutPrefix(raw, prefix)
		if !ok || len(rest) == 0 {
			continue
		}
		switch rest[0] {
		case '}':
			return []byte("{}")
		case ',':
			rest[0] = '{'
			return rest
		}
	}
	return raw
}
