package lossless

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"unsafe"

	"k8s.io/apimachinery/pkg/runtime"
)

// Raw JSON values: apiextensions' JSON (a field holding any JSON value) and
// runtime.RawExtension keep a value as the bytes it came in. The same value
// has many spellings ("V" and "\u0056", keys in another order, other
// spaces), and the API server writes an object again in its own after
// decoding it: a stashed element of a list holding "\u0056" comes back as
// "V" through the other version, unchanged. Comparing the bytes would take
// that for an edit and keep the element without its stashed fields (issue
// 58, item 9), so these compare as the values they hold. (Kubernetes'
// Semantic.DeepEqual compares the bytes.)

// rawJSONPackages is where apiextensions' JSON types live (v1 and
// v1beta1); they are found by shape, not imported, to keep the module from
// requiring apiextensions-apiserver.
const rawJSONPackages = "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/"

var (
	rawExtensionType = reflect.TypeOf((*runtime.RawExtension)(nil)).Elem()
	bytesType        = reflect.TypeOf((*[]byte)(nil)).Elem()
)

// isRawJSON reports whether t is apiextensions' JSON: struct{ Raw []byte }
// named JSON in one of its API versions.
func isRawJSON(t reflect.Type) bool {
	return t.Kind() == reflect.Struct && t.Name() == "JSON" && strings.HasPrefix(t.PkgPath(), rawJSONPackages) &&
		t.NumField() == 1 && t.Field(0).Name == "Raw" && t.Field(0).Type == bytesType
}

// rawJSONEq compares apiextensions' JSON values (Raw at offset 0).
func rawJSONEq(a, b unsafe.Pointer) bool {
	return sameJSONValue(*(*[]byte)(a), *(*[]byte)(b))
}

// rawExtensionEq compares RawExtensions: Raw by value, Object as
// semanticEqual does.
func rawExtensionEq() eqFunc {
	object := reflectEq(rawExtensionType.Field(1).Type)
	offset := rawExtensionType.Field(1).Offset
	return func(a, b unsafe.Pointer) bool {
		return rawJSONEq(a, b) && object(unsafe.Add(a, offset), unsafe.Add(b, offset))
	}
}

// sameJSONValue reports whether a and b are the same JSON value. Empty is
// null, as both types write it. Bytes that do not decode are compared as
// bytes. Numbers are compared as spelled (json.Number): 1 and 1.0 stay
// apart, as a float and an integer field of a client's tell them apart.
func sameJSONValue(a, b []byte) bool {
	if bytes.Equal(a, b) {
		return true
	}
	va, okA := decodeJSONValue(a)
	vb, okB := decodeJSONValue(b)
	return okA && okB && reflect.DeepEqual(va, vb)
}

func decodeJSONValue(raw []byte) (any, bool) {
	if len(bytes.TrimSpace(raw)) == 0 {
		return nil, true
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil || dec.More() {
		return nil, false
	}
	return v, true
}
